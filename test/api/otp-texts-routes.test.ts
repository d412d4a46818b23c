import { describe, expect, it } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { resetBeforeEach } from "../helpers/messages.js";
import {
  challenge,
  createChallenge,
  OTP_FIXTURE,
  OTP_KEYS,
  OTP_NUMBER,
  PHONE,
  textFor,
  OTHER_PHONE,
} from "../helpers/otp.js";
import { useSandbox } from "../helpers/sandbox.js";

const NO_IMESSAGE = "+14155550173"; // magic: an iPhone not on iMessage
const NO_WHATSAPP = "+14155550174"; // magic: an iPhone without WhatsApp

describe("verification by the user's own text (spec sections 3, 4.6)", () => {
  const t = useSandbox({ fixture: OTP_FIXTURE });
  resetBeforeEach(t);

  describe("POST /sandbox/v1/otp/texts and challenges/:id/texts input", () => {
    it.each([
      ["a from that is not a phone", { from: "nobody", text: "123456" }, /^from: /],
      ["a +1 555 from", { from: "+1 555 555 0100", text: "123456" }, /^from: /],
      ["an empty text", { from: PHONE, text: "" }, /^text: must not be empty/],
      ["a text over 2000 characters", { from: PHONE, text: "1".repeat(2_001) }, /^text: /],
      ["an unknown channel", { from: PHONE, text: "123456", channel: "fax" }, /^channel: /],
      [
        "iMessage from a phone not on iMessage",
        { from: NO_IMESSAGE, text: "123456", channel: "imessage" },
        /^from: .*not registered with iMessage/,
      ],
      [
        "WhatsApp from a phone without WhatsApp",
        { from: NO_WHATSAPP, text: "123456", channel: "whatsapp" },
        /^from: .*not on WhatsApp/,
      ],
      ["a group listing the sender", { from: PHONE, text: "123456", members: [PHONE] }, /^members: /],
      ["an unknown field", { from: PHONE, text: "123456", to: OTP_NUMBER }, /to/],
    ])("answers 400 invalid_request for %s, and records nothing", async (_name, body, message) => {
      const res = await t.otp("POST", "/sandbox/v1/otp/texts", { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
      expect(t.sandbox.db.all(t.sandbox.db.q.selectFrom("otp_texts").select("id"))).toEqual([]);
    });

    describe("limits (docs/spec-decisions.md, Input limits of the OTP control API): at them accepted, over them 400 naming the field", () => {
      const others = (n: number) => Array.from({ length: n }, (_, i) => `+1415555${String(1000 + i).padStart(4, "0")}`);

      it.each([
        ["a text of 2000 characters", { from: PHONE, text: "1".repeat(2_000) }],
        ["31 other members", { from: PHONE, text: "123456", members: others(31) }],
      ])("accepts %s (ignored: not a bare code, or a group chat)", async (_name, body) => {
        const res = await t.otp("POST", "/sandbox/v1/otp/texts", { body });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        expect(res.body.data.outcome).toBe("ignored");
      });

      it.each([
        ["a from of 65 characters", { from: "1".repeat(65), text: "123456" }, /^from: must be at most 64 characters$/],
        [
          "32 other members",
          { from: PHONE, text: "123456", members: others(32) },
          /^members: at most 31 other members$/,
        ],
        [
          "a member of 65 characters",
          { from: PHONE, text: "123456", members: ["1".repeat(65)] },
          /^members\.0: must be at most 64 characters$/,
        ],
        ["no other member", { from: PHONE, text: "123456", members: [] }, /^members: must list at least one/],
      ])("refuses %s", async (_name, body, message) => {
        const res = await t.otp("POST", "/sandbox/v1/otp/texts", { body });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
        expect(t.sandbox.db.all(t.sandbox.db.q.selectFrom("otp_texts").select("id"))).toEqual([]);
      });

      it("a challenge's text takes a code of 64 characters (ignored) and refuses 65", async () => {
        const created = await createChallenge(t);
        const at = await t.otp("POST", `/sandbox/v1/otp/challenges/${created.id}/texts`, {
          body: { code: "1".repeat(64) },
        });
        expect(at.status).toBe(201);
        expect(at.body.data).toMatchObject({ outcome: "ignored", challenge: { status: "pending" } });
        const over = await t.otp("POST", `/sandbox/v1/otp/challenges/${created.id}/texts`, {
          body: { code: "1".repeat(65) },
        });
        expect(over.status).toBe(400);
        expect(over.body.message).toMatch(/^code: /);
      });
    });

    it("texts over SMS by default from a phone not on iMessage", async () => {
      const created = await createChallenge(t, NO_IMESSAGE);
      expect((await textFor(t, created.id)).text.channel).toBe("sms");
    });

    it("refuses WhatsApp when the fixture offers no WhatsApp OTP number", async () => {
      await t.sandbox.control.reset(parseFixture({ ...OTP_FIXTURE, otp: { number: OTP_NUMBER } }, "test"));
      const created = await createChallenge(t);
      const res = await t.otp("POST", `/sandbox/v1/otp/challenges/${created.id}/texts`, {
        body: { channel: "whatsapp" },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^channel: .*no WhatsApp number/);
    });

    it("by challenge id: 404 for another account's challenge; one of code, wrong and text", async () => {
      const theirs = await createChallenge(t, PHONE, OTP_KEYS.beta);
      expect((await t.otp("POST", `/sandbox/v1/otp/challenges/${theirs.id}/texts`, { body: {} })).status).toBe(404);
      const ours = await createChallenge(t, OTHER_PHONE);
      const res = await t.otp("POST", `/sandbox/v1/otp/challenges/${ours.id}/texts`, {
        body: { code: "123456", wrong: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^wrong: send one of code, wrong and text/);
    });

    it("simulate inbound to an OTP number on the messaging host points to the OTP texts", async () => {
      const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
        body: { from: PHONE, to: OTP_NUMBER, text: "123456" },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/OTP service's number: text it with `msgctl otp text`/);
    });
  });

  describe("the OTP numbers' threads (GET /sandbox/v1/otp/texts)", () => {
    it("keeps every text in and reply out, newest first, with unique increasing times", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id, { wrong: true });
      await textFor(t, created.id, { text: "hello?" });
      await textFor(t, created.id);
      const res = await t.otp("GET", `/sandbox/v1/otp/texts?phone=${encodeURIComponent(PHONE)}`);
      expect(res.status).toBe(200);
      expect(res.body.has_more).toBe(false);
      const thread = res.body.data.reverse();
      expect(thread.map((text: any) => [text.direction, text.outcome])).toEqual([
        ["inbound", "wrong_code"],
        ["outbound", null],
        ["inbound", "ignored"],
        ["inbound", "verified"],
        ["outbound", null],
      ]);
      const times = thread.map((text: any) => Date.parse(text.created_at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(times.length);
    });

    it("pages with limit and before", async () => {
      const created = await createChallenge(t);
      for (let i = 0; i < 3; i++) await textFor(t, created.id, { wrong: true });
      const first = await t.otp("GET", "/sandbox/v1/otp/texts?limit=4");
      expect(first.body).toMatchObject({ has_more: true });
      const next = await t.otp("GET", `/sandbox/v1/otp/texts?limit=4&before=${first.body.data.at(-1).created_at}`);
      expect(next.body.has_more).toBe(false);
      expect([...first.body.data, ...next.body.data]).toHaveLength(6);
    });

    it("shows an account only the threads of phones it created challenges for", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      expect((await t.otp("GET", "/sandbox/v1/otp/texts", { key: OTP_KEYS.beta })).body.data).toEqual([]);
      await createChallenge(t, PHONE, OTP_KEYS.beta);
      expect((await t.otp("GET", "/sandbox/v1/otp/texts", { key: OTP_KEYS.beta })).body.data).toHaveLength(2);
    });

    it.each([
      ["phone=nobody", /^phone: /],
      ["limit=0", /^limit: /],
      ["before=yesterday", /^before: /],
    ])("answers 400 invalid_request for %s", async (query, message) => {
      const res = await t.otp("GET", `/sandbox/v1/otp/texts?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });
  });
});
