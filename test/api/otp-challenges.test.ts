import { describe, expect, it } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { resetBeforeEach } from "../helpers/messages.js";
import { challenge, createChallenge, nowIso, OTP_FIXTURE, OTP_KEYS, PHONE, textFor } from "../helpers/otp.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

const error = (code: string, message: RegExp = /./) => ({
  error: code,
  message: expect.stringMatching(message),
  request_id: expect.stringMatching(/^req_/),
});

describe("OTP challenges (spec sections 2, 3, 4.6)", () => {
  const t = useSandbox({ fixture: OTP_FIXTURE });
  resetBeforeEach(t);
  const count = () => t.sandbox.db.all(t.sandbox.db.q.selectFrom("otp_challenges").select("id")).length;

  describe("POST /v1/challenges", () => {
    it("answers 201 with the create response: a six-digit code, the number to text, the links, expiry in 10 minutes", async () => {
      const res = await t.otp("POST", "/v1/challenges", { body: { phone: PHONE } });
      expect(res.status).toBe(201);
      const { code, id } = res.body.data;
      expect(code).toMatch(/^[0-9]{6}$/);
      expect(id).toMatch(/^chal_[A-Za-z0-9]{24}$/);
      expect(res.body.data).toEqual({
        id,
        code,
        phone: PHONE,
        expires_at: nowIso(t, 600_000),
        send_to: { number: "+14155550190", display: "(415) 555-0190", sms_link: `sms:+14155550190?&body=${code}` },
        whatsapp: { number: "+14155550189", display: "(415) 555-0189", link: `https://wa.me/14155550189?text=${code}` },
      });
      expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
    });

    it("starts pending; the code is returned only at creation", async () => {
      const created = await createChallenge(t);
      expect(await challenge(t, created.id)).toEqual({
        id: created.id,
        status: "pending",
        phone: PHONE,
        expires_at: created.expires_at,
        verified_at: null,
        consumed_at: null,
        created_at: nowIso(t),
      });
    });

    it.each([
      ["E.164", "+14155550123", "+14155550123"],
      ["a US national format with parentheses", "(415) 555-2671", "+14155552671"],
      ["a US national format with dashes", "415-555-2671", "+14155552671"],
      ["US digits only", "4155552671", "+14155552671"],
      ["an international number with spaces", "+44 20 7946 0018", "+442079460018"],
      ["surrounding whitespace", "  +1 415 555 0123 ", "+14155550123"],
    ])("normalises %s to E.164", async (_name, phone, e164) => {
      const created = await createChallenge(t, phone);
      expect(created.phone).toBe(e164);
    });

    it.each([
      ["a +1 555 number", "+1 555 555 0100"],
      ["a UK national number without its country code", "020 7946 0018"],
      ["words", "call me"],
      ["a number inside a sentence", "call me at 415-555-0114 please"],
      ["a number with an extension", "4155550115 ext. 77"],
      ["a number with a letter after it", "4155550112x"],
      ["a number with text after a separator", "+1 (415) 555-0116;foo"],
      ["an empty string", ""],
      ["a long string (under the 20,000 characters of any field)", "4".repeat(19_000)],
    ])("answers 400 invalid_phone for %s, and creates nothing", async (_name, phone) => {
      const res = await t.otp("POST", "/v1/challenges", { body: { phone } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("invalid_phone", /^phone: .* is not a valid phone number/));
      expect(res.body.message.length).toBeLessThan(200);
      expect(count()).toBe(0);
    });

    it.each(["+14155550190", "(415) 555-0190", "+14155550189"])(
      "answers 400 invalid_phone for the service's own number %s, and creates nothing",
      async (phone) => {
        const res = await t.otp("POST", "/v1/challenges", { body: { phone } });
        expect(res.body).toEqual(error("invalid_phone", /^phone: \+141555501(90|89) is the OTP service's own number/));
        expect(count()).toBe(0);
      },
    );

    it.each([
      ["a number", { phone: 4155550123 }, /^phone: must be a string$/],
      ["null", { phone: null }, /^phone: must be a string$/],
      ["an array", { phone: ["+14155550123"] }, /^phone: must be a string$/],
      ["no phone", {}, /^phone: required$/],
      ["an unknown field", { phone: PHONE, code: "123456" }, /code/],
      [
        "a string over the 20,000 characters no field takes",
        { phone: "4".repeat(20_001) },
        /^phone: longer than 20000 characters/,
      ],
      ["no body", undefined, /^body: required/],
      ["malformed JSON", '{"phone": "+1415', /Malformed JSON/],
    ])("answers 400 invalid_request for %s, and creates nothing", async (_name, body, message) => {
      const res = await t.otp("POST", "/v1/challenges", { body });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("invalid_request", message));
      expect(count()).toBe(0);
    });

    it("shows an OTP number outside North America in international form", async () => {
      await t.sandbox.control.reset(
        parseFixture({ ...OTP_FIXTURE, otp: { number: "+442079460018", whatsapp_number: "+442079460019" } }, "test"),
      );
      const created = await createChallenge(t);
      expect(created.send_to).toEqual({
        number: "+442079460018",
        display: "+44 20 7946 0018",
        sms_link: `sms:+442079460018?&body=${created.code}`,
      });
      expect(created.whatsapp).toEqual({
        number: "+442079460019",
        display: "+44 20 7946 0019",
        link: `https://wa.me/442079460019?text=${created.code}`,
      });
    });

    it("offers no WhatsApp target when the fixture has no WhatsApp OTP number (whatsapp: null)", async () => {
      await t.sandbox.control.reset(parseFixture({ ...OTP_FIXTURE, otp: { number: "+14155550190" } }, "test"));
      const created = await createChallenge(t);
      expect(created.whatsapp).toBeNull();
      expect(created.send_to.number).toBe("+14155550190");
    });
  });

  describe("GET /v1/challenges/:id", () => {
    it.each([
      ["an unknown id", "chal_000000000000000000000000"],
      ["a malformed id", "not-an-id"],
      ["a very long id", "chal_".padEnd(5_000, "x")],
    ])("answers 404 not_found for %s", async (_name, id) => {
      const res = await t.otp("GET", `/v1/challenges/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(error("not_found"));
    });

    it("answers 404 not_found for another account's challenge, on GET and consume alike", async () => {
      const theirs = await createChallenge(t, PHONE, OTP_KEYS.beta);
      expect((await t.otp("GET", `/v1/challenges/${theirs.id}`)).body).toEqual(error("not_found"));
      expect((await t.otp("POST", `/v1/challenges/${theirs.id}/consume`)).status).toBe(404);
      expect((await challenge(t, theirs.id, OTP_KEYS.beta)).status).toBe("pending");
    });
  });

  describe("POST /v1/challenges/:id/consume, every row of the status table", () => {
    it("pending: 409 not_verified, unchanged", async () => {
      const created = await createChallenge(t);
      const res = await t.otp("POST", `/v1/challenges/${created.id}/consume`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual(error("not_verified"));
      expect((await challenge(t, created.id)).status).toBe("pending");
    });

    it("verified: 200 consumed with consumed_at set (a body is ignored)", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      await t.advance(1_500);
      const res = await t.otp("POST", `/v1/challenges/${created.id}/consume`, { body: {} });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: created.id,
        status: "consumed",
        consumed_at: nowIso(t),
        verified_at: nowIso(t, -1_500),
      });
    });

    it("consumed: 409 already_consumed, unchanged", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      expect((await t.otp("POST", `/v1/challenges/${created.id}/consume`)).status).toBe(200);
      const consumedAt = (await challenge(t, created.id)).consumed_at;
      await t.advance(1_000);
      const res = await t.otp("POST", `/v1/challenges/${created.id}/consume`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual(error("already_consumed"));
      expect(await challenge(t, created.id)).toMatchObject({ status: "consumed", consumed_at: consumedAt });
    });

    it("succeeds exactly once under concurrent consumes", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => t.otp("POST", `/v1/challenges/${created.id}/consume`)),
      );
      expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
      expect(answers.filter((res) => res.status === 409 && res.body.error === "already_consumed")).toHaveLength(9);
    });

    it("expired (pending for 10 minutes): 410 expired, unchanged", async () => {
      const created = await createChallenge(t);
      await t.advance(600_000);
      const res = await t.otp("POST", `/v1/challenges/${created.id}/consume`);
      expect(res.status).toBe(410);
      expect(res.body).toEqual(error("expired"));
      expect((await challenge(t, created.id)).status).toBe("expired");
    });
  });

  describe("expiry on the clock (10 minutes after creation)", () => {
    it("a pending challenge is pending at 9:59.999 and expired at 10:00", async () => {
      const created = await createChallenge(t);
      await t.advance(599_999);
      expect((await challenge(t, created.id)).status).toBe("pending");
      await t.advance(1);
      expect(await challenge(t, created.id)).toMatchObject({ status: "expired", verified_at: null, consumed_at: null });
    });

    it("a verified challenge that is not consumed expires at 10 minutes too, and then cannot be consumed", async () => {
      const created = await createChallenge(t);
      await t.advance(60_000);
      await textFor(t, created.id);
      await t.advance(539_999);
      expect((await challenge(t, created.id)).status).toBe("verified");
      await t.advance(1);
      expect(await challenge(t, created.id)).toMatchObject({ status: "expired", verified_at: nowIso(t, -540_000) });
      expect((await t.otp("POST", `/v1/challenges/${created.id}/consume`)).status).toBe(410);
    });

    it("a consumed challenge stays consumed after 10 minutes", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      await t.otp("POST", `/v1/challenges/${created.id}/consume`);
      await t.advance(3_600_000);
      expect((await challenge(t, created.id)).status).toBe("consumed");
    });
  });

  describe("keys (spec section 5)", () => {
    it("a messaging key on the OTP host is 401 unauthorized", async () => {
      const res = await t.otp("POST", "/v1/challenges", { body: { phone: PHONE }, key: KEY });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(error("unauthorized", /OTP API keys/));
      expect(count()).toBe(0);
    });

    it("an OTP key on the messaging host is 401 unauthorized", async () => {
      const res = await t.api("GET", "/v1/numbers", { key: OTP_KEYS.acme });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(error("unauthorized", /messaging API keys/));
    });

    it.each([
      ["no key", null],
      ["an unknown otp_live_ key", "otp_live_unknown_000000000000"],
    ])("%s is 401 unauthorized on every OTP path", async (_name, key) => {
      for (const [method, path] of [
        ["POST", "/v1/challenges"],
        ["GET", "/v1/challenges/chal_x"],
        ["POST", "/v1/challenges/chal_x/consume"],
      ] as const) {
        expect(
          (await t.otp(method, path, { key, body: method === "POST" ? { phone: PHONE } : undefined })).status,
        ).toBe(401);
      }
    });
  });

  describe("accounts on demand", () => {
    it("a new account verifies phones with its own OTP key; deleting it removes its challenges, and their expiry finds nothing", async () => {
      const res = await t.otp("POST", "/sandbox/v1/accounts", { body: { name: "worker", app_name: "Worker App" } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const key = res.body.data.otp_api_key;
      const created = await createChallenge(t, PHONE, key);
      expect((await textFor(t, created.id, {}, key)).reply.text).toMatch(/verified for Worker App/);
      expect((await t.otp("DELETE", "/sandbox/v1/accounts/worker")).status).toBe(200);
      expect(count()).toBe(0);
      await t.advance(600_000);
      expect((await t.otp("GET", `/v1/challenges/${created.id}`, { key })).status).toBe(401);
    });
  });

  describe("conventions", () => {
    it("an unknown path is 404 and a wrong method 405 on the OTP host", async () => {
      expect((await t.otp("GET", "/v1/nothing")).body).toEqual(error("not_found"));
      const res = await t.otp("DELETE", "/v1/challenges");
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    });
  });
});
