import { describe, expect, it } from "vitest";
import { KEY, OTP_KEY, useSandbox } from "../helpers/sandbox.js";

const unauthorized = { error: "unauthorized", message: expect.any(String), request_id: expect.stringMatching(/^req_/) };

describe("authentication (spec section 5)", () => {
  const t = useSandbox();

  describe("messaging host", () => {
    it("takes the account's sk_ key", async () => {
      expect((await t.api("GET", "/v1/numbers")).status).toBe(200);
    });

    it.each([
      ["a missing Authorization header", null, undefined],
      ["an OTP key (the other host's kind)", OTP_KEY, undefined],
      ["an unknown sk_test_ key", "sk_test_unknown_0000000000000", undefined],
      ["an unknown sk_live_ key", "sk_live_unknown_0000000000000", undefined],
      ["a malformed key", "not-a-key", undefined],
      ["a non-Bearer scheme", null, { authorization: `Basic ${KEY}` }],
      ["an empty Bearer", null, { authorization: "Bearer " }],
    ])("answers 401 unauthorized for %s", async (_name, key, headers) => {
      const res = await t.api("GET", "/v1/numbers", { key, headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
      expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
    });

    it("protects the control API the same way", async () => {
      expect((await t.api("GET", "/sandbox/v1/clock", { key: null })).status).toBe(401);
      expect((await t.api("GET", "/sandbox/v1/clock", { key: OTP_KEY })).status).toBe(401);
      expect((await t.api("GET", "/sandbox/v1/clock")).status).toBe(200);
    });

    it("leaves /healthz open", async () => {
      expect((await t.api("GET", "/healthz", { key: null })).status).toBe(200);
    });
  });

  describe("OTP host", () => {
    it("takes the account's otp_live_ key on its control API", async () => {
      expect((await t.otp("GET", "/sandbox/v1/clock")).status).toBe(200);
    });

    it.each([
      ["a messaging sk_test_ key", KEY],
      ["a messaging sk_live_ key", "sk_live_acme_0000000000000000"],
      ["an unknown otp_live_ key", "otp_live_unknown_000000000000"],
      ["no key", null],
    ])("answers 401 unauthorized for %s", async (_name, key) => {
      const res = await t.otp("GET", "/sandbox/v1/clock", { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(unauthorized);
    });

    it("leaves /healthz open", async () => {
      expect((await t.otp("GET", "/healthz", { key: null })).status).toBe(200);
    });
  });
});
