import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/index.js";

describe("startSandbox() for users' test suites (docs/sandbox.md)", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.stop());

  it("serves both hosts on free local ports with the fixture's keys", async () => {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.otpUrl).not.toBe(sandbox.baseUrl);
    expect(sandbox.apiKey).toBe("sk_test_acme_0000000000000000");
    expect(sandbox.otpApiKey).toBe("otp_live_acme_000000000000000");
    expect((await fetch(`${sandbox.otpUrl}/healthz`)).status).toBe(200);
  });

  it("returns a typed client", async () => {
    const numbers = await sandbox.client.numbers.list();
    expect(numbers.map((n) => n.handle)).toContain("+14155550101");
  });

  it("has a manual clock by default that advance moves", async () => {
    expect(sandbox.clock.mode).toBe("manual");
    const before = sandbox.clock.now().getTime();
    const after = await sandbox.clock.advance("2h");
    expect(after.getTime() - before).toBe(7_200_000);
    expect(sandbox.clock.now().getTime()).toBe(after.getTime());
  });

  it("simulates the other side and awaits the events it causes, counting ones already emitted", async () => {
    const inbound = await sandbox.simulate.inbound({ from: "+14155550191", to: "+14155550101", text: "hi there" });
    const received = await sandbox.waitForEvent("message.received", { match: { message_id: inbound.id } });
    expect(received.payload).toMatchObject({
      type: "message.received",
      from: "+14155550191",
      to: "+14155550101",
      text: "hi there",
    });

    const sent = await sandbox.client.messages.send({
      to: "+14155550191",
      from_handle: "+14155550101",
      text: "hello back",
    });
    const delivered = sandbox.waitForEvent("message.delivered", { match: (p) => p.message_id === sent.message.id });
    await sandbox.clock.advance("1s");
    expect((await delivered).payload.message_id).toBe(sent.message.id);
    expect(sandbox.events().map((e) => e.type)).toEqual(["message.received", "message.sent", "message.delivered"]);
  });

  it("rejects waitForEvent with a clear message at the timeout", async () => {
    await expect(sandbox.waitForEvent("message.read", { timeout: 10 })).rejects.toThrow(
      /No message.read event within 10 ms/,
    );
  });
});

describe("startSandbox() with a fixture object", () => {
  it("validates it and starts with its accounts", async () => {
    const sandbox = await startSandbox({
      fixture: { accounts: [{ name: "Tiny", api_key: "sk_test_tiny_0000", numbers: [] }] },
    });
    expect(sandbox.accounts.map((a) => a.name)).toEqual(["Tiny"]);
    expect(await sandbox.client.numbers.list()).toEqual([]);
    await sandbox.stop();
    await expect(startSandbox({ fixture: { accounts: "none" } })).rejects.toThrow(
      /startSandbox\(\{ fixture \}\): accounts/,
    );
  });
});

describe("startSandbox().reset() with a fixture that leaves the keys out", () => {
  it("wipes the state and keeps the generated keys, so the handle's clients still work", async () => {
    const sandbox = await startSandbox({
      fixture: {
        accounts: [
          { name: "A", numbers: [{ handle: "+14155550171", channels: ["sms"] }] },
          { name: "B", numbers: [] },
        ],
      },
    });
    try {
      const { apiKey, otpApiKey } = sandbox;
      expect(apiKey).toMatch(/^sk_test_/);
      const b = sandbox.clientFor("B");
      await sandbox.client.messages.send({ to: "+14155550150", from_handle: "+14155550171", text: "before" });
      await sandbox.reset();
      expect([sandbox.apiKey, sandbox.otpApiKey]).toEqual([apiKey, otpApiKey]);
      expect(await sandbox.client.messages.list()).toEqual({ data: [], hasMore: false });
      expect((await sandbox.client.numbers.list()).map((n) => n.handle)).toEqual(["+14155550171"]);
      expect(await b.numbers.list()).toEqual([]);
      expect(await sandbox.otp.create("+14155550141")).toMatchObject({ phone: "+14155550141" });
    } finally {
      await sandbox.stop();
    }
  });
});
