import { describe, expect, it } from "vitest";
import { resetBeforeEach } from "../helpers/messages.js";
import { challenge, createChallenge, OTP_FIXTURE, OTP_KEYS, PHONE, textFor } from "../helpers/otp.js";
import { useSandbox } from "../helpers/sandbox.js";

/** A fictional phone per index: +1 415 555 01xx. */
const phoneNo = (i: number) => `+1415555${String(100 + (i % 100)).padStart(4, "0")}`;

describe("OTP limits and faults (spec sections 7, 8; docs/sandbox.md and docs/otp.md)", () => {
  const t = useSandbox({ fixture: OTP_FIXTURE });
  resetBeforeEach(t);

  const create = (phone = PHONE, key?: string) => t.otp("POST", "/v1/challenges", { body: { phone }, key });
  const expectLimited = async (phone: string, key: string | undefined, what: RegExp, retryAfter: string) => {
    const res = await create(phone, key);
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ error: "rate_limited", message: expect.stringMatching(what) });
    expect(res.headers.get("retry-after")).toBe(retryAfter);
  };

  describe("3 challenges per minute for one phone from one account", () => {
    it("refuses the 4th with 429 rate_limited until the minute has passed", async () => {
      for (let i = 0; i < 3; i++) await createChallenge(t);
      await expectLimited(PHONE, undefined, /3 challenges per minute for one phone from this account/, "60");
      await t.advance(59_999);
      await expectLimited(PHONE, undefined, /3 challenges per minute/, "1");
      await t.advance(1);
      expect((await create()).status).toBe(201);
    });

    it("is a sliding window: each challenge frees its place exactly a minute after it was made", async () => {
      await createChallenge(t);
      await t.advance(30_000);
      await createChallenge(t);
      await createChallenge(t);
      await t.advance(29_999);
      await expectLimited(PHONE, undefined, /3 challenges per minute/, "1");
      await t.advance(1); // the first is a minute old
      expect((await create()).status).toBe(201);
      await expectLimited(PHONE, undefined, /3 challenges per minute/, "30");
      await t.advance(30_000);
      expect((await create()).status).toBe(201);
    });

    it("counts per account and per phone: other phones and other accounts are not held back", async () => {
      for (let i = 0; i < 3; i++) await createChallenge(t);
      expect((await create(phoneNo(1))).status).toBe(201);
      expect((await create(PHONE, OTP_KEYS.beta)).status).toBe(201);
    });

    it("refused requests do not count", async () => {
      for (let i = 0; i < 3; i++) await createChallenge(t);
      await t.advance(10_000);
      for (let i = 0; i < 5; i++) expect((await create()).status).toBe(429);
      await t.advance(50_000);
      for (let i = 0; i < 3; i++) expect((await create()).status).toBe(201);
    });

    it("the phone is counted in E.164, whatever format it was written in", async () => {
      await createChallenge(t, "+14155550123");
      await createChallenge(t, "(415) 555-0123");
      await createChallenge(t, "415.555.0123");
      await expectLimited("4155550123", undefined, /3 challenges per minute/, "60");
    });
  });

  describe("10 challenges per minute for one phone across all apps", () => {
    it("refuses the 11th, from any account, until the minute has passed", async () => {
      for (const key of [OTP_KEYS.acme, OTP_KEYS.beta, OTP_KEYS.gamma])
        for (let i = 0; i < 3; i++) await createChallenge(t, PHONE, key);
      await createChallenge(t, PHONE, OTP_KEYS.delta);
      await expectLimited(PHONE, OTP_KEYS.delta, /10 challenges per minute for one phone across all apps/, "60");
      await t.advance(59_999);
      await expectLimited(PHONE, OTP_KEYS.delta, /across all apps/, "1");
      await t.advance(1);
      expect((await create(PHONE, OTP_KEYS.delta)).status).toBe(201);
    });
  });

  describe("120 challenges per minute for one account", () => {
    it("refuses the 121st until the minute has passed", async () => {
      for (let i = 0; i < 120; i++) await createChallenge(t, phoneNo(i % 40));
      await expectLimited(phoneNo(99), undefined, /120 challenges per minute for this account/, "60");
      expect((await create(phoneNo(99), OTP_KEYS.beta)).status).toBe(201);
      await t.advance(60_000);
      expect((await create(phoneNo(99))).status).toBe(201);
    });
  });

  describe("403 forbidden for a suspended OTP account (fixture otp_suspended)", () => {
    it.each([
      ["POST", "/v1/challenges"],
      ["GET", "/v1/challenges/chal_000000000000000000000000"],
      ["POST", "/v1/challenges/chal_000000000000000000000000/consume"],
    ])("%s %s", async (method, path) => {
      const res = await t.otp(method, path, {
        key: OTP_KEYS.frozen,
        body: method === "POST" ? { phone: PHONE } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: "forbidden", message: expect.stringMatching(/suspended/) });
    });

    it("its control API still answers", async () => {
      expect((await t.otp("GET", "/sandbox/v1/clock", { key: OTP_KEYS.frozen })).status).toBe(200);
    });
  });

  describe("503 unavailable under the simulated outage (simulate otp-fault unavailable)", () => {
    it("every /v1 path answers 503 while /healthz and the control API stay up; off restores it, nothing changed", async () => {
      const created = await createChallenge(t);
      const on = await t.otp("POST", "/sandbox/v1/otp/fault", { body: { fault: "unavailable" } });
      expect(on.body.data).toEqual({ unavailable: true });
      for (const [method, path] of [
        ["POST", "/v1/challenges"],
        ["GET", `/v1/challenges/${created.id}`],
        ["POST", `/v1/challenges/${created.id}/consume`],
      ] as const) {
        const res = await t.otp(method, path, { body: method === "POST" ? { phone: PHONE } : undefined });
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ error: "unavailable", message: expect.stringMatching(/safe to retry/) });
      }
      expect((await t.otp("GET", "/healthz", { key: null })).status).toBe(200);
      expect((await t.otp("GET", "/sandbox/v1/otp/fault")).body.data).toEqual({ unavailable: true });
      expect((await textFor(t, created.id)).outcome).toBe("verified");

      const off = await t.otp("POST", "/sandbox/v1/otp/fault", { body: { fault: "unavailable", off: true } });
      expect(off.body.data).toEqual({ unavailable: false });
      expect((await challenge(t, created.id)).status).toBe("verified");
      expect((await t.otp("GET", "/sandbox/v1/otp/texts")).body.data).toHaveLength(2);
      expect((await create(phoneNo(5))).status).toBe(201);
    });

    it("comes before the suspended account's 403 (the service is down for everyone)", async () => {
      await t.otp("POST", "/sandbox/v1/otp/fault", { body: { fault: "unavailable" } });
      expect((await create(PHONE, OTP_KEYS.frozen)).status).toBe(503);
      expect((await create(PHONE, "sk_test_acme_0000000000000000")).status).toBe(401);
    });

    it("is the host's, switched by any account's OTP key, and a reset ends it", async () => {
      await t.otp("POST", "/sandbox/v1/otp/fault", { body: { fault: "unavailable" }, key: OTP_KEYS.beta });
      expect((await create()).status).toBe(503);
      await t.sandbox.control.reset();
      expect((await create()).status).toBe(201);
    });

    it.each([
      ["no body", undefined, /^body: required/],
      ["another fault", { fault: "offline" }, /^fault: must be "unavailable"/],
      ["off that is not a boolean", { fault: "unavailable", off: "yes" }, /^off: /],
    ])("answers 400 invalid_request for %s", async (_name, body, message) => {
      const res = await t.otp("POST", "/sandbox/v1/otp/fault", { body });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });
  });
});
