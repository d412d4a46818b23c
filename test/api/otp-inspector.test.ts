import { beforeEach, describe, expect, it } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { createChallenge, OTP_FIXTURE, OTP_KEYS, PHONE, textFor } from "../helpers/otp.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

/**
 * The OTP views of the inspector through the control API (docs/control-api.md, "OTP"): the
 * challenges with their codes, and the OTP control routes served on the messaging host too.
 */
describe("control API: OTP challenges for the inspector", () => {
  const t = useSandbox({ fixture: parseFixture(OTP_FIXTURE, "OTP fixture") });
  beforeEach(() => t.sandbox.control.reset());

  it("lists the account's challenges newest first with their codes, status now and wrong texts, on both hosts", async () => {
    const first = await createChallenge(t);
    const second = await createChallenge(t, "+14155550124");
    await textFor(t, first.id, { wrong: true });
    const fromOtpHost = (await t.otp("GET", "/sandbox/v1/otp/challenges")).body;
    expect(fromOtpHost).toMatchObject({ has_more: false });
    expect(fromOtpHost.data).toEqual([
      {
        id: second.id,
        status: "pending",
        phone: "+14155550124",
        expires_at: second.expires_at,
        verified_at: null,
        consumed_at: null,
        created_at: expect.any(String),
        code: second.code,
        wrong_texts: 0,
      },
      {
        id: first.id,
        status: "pending",
        phone: PHONE,
        expires_at: first.expires_at,
        verified_at: null,
        consumed_at: null,
        created_at: expect.any(String),
        code: first.code,
        wrong_texts: 1,
      },
    ]);
    // The messaging host serves the same with the account's sk_ key: the inspector has one origin and one key.
    expect((await t.api("GET", "/sandbox/v1/otp/challenges", { key: KEY })).body.data).toEqual(fromOtpHost.data);
    // Ten minutes later they read as expired, before their expiry jobs ran or after.
    await t.advance(600_000);
    expect(
      (await t.api("GET", "/sandbox/v1/otp/challenges")).body.data.map((c: { status: string }) => c.status),
    ).toEqual(["expired", "expired"]);
  });

  it("shows no other account's challenges, and takes limit 1-100", async () => {
    await createChallenge(t, PHONE, OTP_KEYS.beta);
    expect((await t.otp("GET", "/sandbox/v1/otp/challenges")).body.data).toEqual([]);
    const mine = await createChallenge(t);
    await createChallenge(t, "+14155550125");
    const limited = (await t.otp("GET", "/sandbox/v1/otp/challenges?limit=1")).body;
    expect(limited).toMatchObject({ has_more: true, data: [{ phone: "+14155550125" }] });
    expect(mine.id).not.toBe(limited.data[0].id);
    for (const limit of ["0", "101", "x"]) {
      const res = await t.otp("GET", `/sandbox/v1/otp/challenges?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringContaining("limit") });
    }
  });

  it("texts a challenge from the messaging host with the sk_ key: the right code verifies it", async () => {
    const created = await createChallenge(t);
    const res = await t.api("POST", `/sandbox/v1/otp/challenges/${created.id}/texts`, { body: {} });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ outcome: "verified", challenge: { id: created.id, status: "verified" } });
    const texts = (await t.api("GET", `/sandbox/v1/otp/texts?phone=${encodeURIComponent(PHONE)}`)).body.data;
    expect(texts.map((x: { direction: string; text: string }) => [x.direction, x.text])).toEqual([
      ["outbound", expect.stringContaining("verified")],
      ["inbound", created.code],
    ]);
  });
});
