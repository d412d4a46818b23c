import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/http.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

describe("startSandbox().otp: the typed OTP client and the user's texts", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("creates, has the user text the code, polls and consumes", async () => {
    const { otp } = sandbox;
    const created = await otp.create("(415) 555-0123");
    expect(created).toMatchObject({ phone: "+14155550123", send_to: { number: "+14155550190" } });
    expect((await otp.get(created.id)).status).toBe("pending");
    const texted = await otp.text(created.id);
    expect(texted).toMatchObject({
      outcome: "verified",
      reply: { text: expect.stringMatching(/verified for Acme/) },
      challenge: { status: "verified" },
    });
    expect((await otp.consume(created.id)).status).toBe("consumed");
    const thread = await otp.texts({ phone: created.phone });
    expect(thread.data.map((text) => text.direction)).toEqual(["outbound", "inbound"]);
  });

  it("texts as any phone, and throws ApiError with the spec's codes", async () => {
    const { otp } = sandbox;
    const created = await otp.create("+14155550124");
    expect(
      (await otp.sendText({ from: "+14155550124", text: "000000" === created.code ? "111111" : "000000" })).outcome,
    ).toBe("wrong_code");
    const refused = await otp.consume(created.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: "not_verified" });
    await sandbox.clock.advance("10m");
    await expect(otp.consume(created.id)).rejects.toMatchObject({ status: 410, code: "expired" });
  });

  it("switches the outage on and off", async () => {
    const { otp } = sandbox;
    expect(await otp.fault("unavailable")).toEqual({ unavailable: true });
    await expect(otp.create("+14155550125")).rejects.toMatchObject({ status: 503, code: "unavailable" });
    expect(await otp.fault("unavailable", { off: true })).toEqual({ unavailable: false });
    expect(await otp.faults()).toEqual({ unavailable: false });
  });
});
