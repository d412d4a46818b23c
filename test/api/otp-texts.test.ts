import { describe, expect, it } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { resetBeforeEach } from "../helpers/messages.js";
import {
  challenge,
  createChallenge,
  nowIso,
  OTP_FIXTURE,
  OTP_KEYS,
  OTP_NUMBER,
  OTP_WHATSAPP,
  PHONE,
  textFor,
  textFrom,
} from "../helpers/otp.js";
import { useSandbox } from "../helpers/sandbox.js";

const OTHER_PHONE = "+14155550124";
const NO_IMESSAGE = "+14155550173"; // magic: an iPhone not on iMessage
const NO_WHATSAPP = "+14155550174"; // magic: an iPhone without WhatsApp

describe("verification by the user's own text (spec sections 3, 4.6)", () => {
  const t = useSandbox({ fixture: OTP_FIXTURE });
  resetBeforeEach(t);

  describe("the right code", () => {
    it("a bare six-digit text equal to the code, from the challenge's phone, verifies it; the reply names the app", async () => {
      const created = await createChallenge(t);
      await t.advance(30_000);
      const result = await textFrom(t, PHONE, created.code);
      expect(result.outcome).toBe("verified");
      expect(result.challenge).toMatchObject({ id: created.id, status: "verified", verified_at: nowIso(t) });
      expect(result.text).toMatchObject({
        phone: PHONE,
        otp_number: OTP_NUMBER,
        channel: "imessage",
        direction: "inbound",
        text: created.code,
        outcome: "verified",
      });
      expect(result.reply).toMatchObject({
        phone: PHONE,
        otp_number: OTP_NUMBER,
        channel: "imessage",
        direction: "outbound",
      });
      expect(result.reply.text).toBe(
        "Your phone number is verified for Acme Rewards. You can go back to Acme Rewards now.",
      );
      expect(await challenge(t, created.id)).toMatchObject({ status: "verified", verified_at: nowIso(t) });
    });

    it("is verified no earlier than the text that verified it, and consumed no earlier than verified", async () => {
      // Texts made in one millisecond take the next ones (a thread's times are unique): on a still
      // manual clock the verifying text is stamped ahead of the clock's now.
      const created = await createChallenge(t);
      await textFor(t, created.id, { wrong: true });
      const result = await textFor(t, created.id);
      expect(result.outcome).toBe("verified");
      expect(Date.parse(result.text.created_at)).toBeGreaterThan(Date.parse(nowIso(t)));
      expect(Date.parse(result.challenge.verified_at)).toBeGreaterThanOrEqual(Date.parse(result.text.created_at));

      const consumed = await t.otp("POST", `/v1/challenges/${created.id}/consume`);
      expect(consumed.status).toBe(200);
      expect(Date.parse(consumed.body.data.consumed_at)).toBeGreaterThanOrEqual(
        Date.parse(consumed.body.data.verified_at),
      );
      expect(await challenge(t, created.id)).toMatchObject({
        verified_at: result.challenge.verified_at,
        consumed_at: consumed.body.data.consumed_at,
      });
    });

    it.each([
      ["iMessage", "imessage", OTP_NUMBER],
      ["SMS", "sms", OTP_NUMBER],
      ["WhatsApp (to the WhatsApp OTP number)", "whatsapp", OTP_WHATSAPP],
    ])("verifies over %s, and the reply comes in the same thread", async (_name, channel, otpNumber) => {
      const created = await createChallenge(t);
      const result = await textFor(t, created.id, { channel });
      expect(result.outcome).toBe("verified");
      expect(result.text).toMatchObject({ channel, otp_number: otpNumber });
      expect(result.reply).toMatchObject({ channel, otp_number: otpNumber, direction: "outbound" });
    });

    it("accepts whitespace around the code (not other text), and texts in US national form of the phone", async () => {
      const created = await createChallenge(t, "(415) 555-0123");
      const result = await textFrom(t, "415-555-0123", ` ${created.code}\n`);
      expect(result.outcome).toBe("verified");
    });

    it("a text to a challenge already verified changes nothing and says so", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      const again = await textFor(t, created.id);
      expect(again.outcome).toBe("already_verified");
      expect(again.reply.text).toBe("Your phone number is already verified for Acme Rewards.");
    });

    it("a text with the code of a consumed challenge says it was used", async () => {
      const created = await createChallenge(t);
      await textFor(t, created.id);
      await t.otp("POST", `/v1/challenges/${created.id}/consume`);
      const again = await textFor(t, created.id);
      expect(again).toMatchObject({ outcome: "already_consumed", challenge: { status: "consumed" } });
      expect(again.reply.text).toMatch(/^That code has already been used\. Please request a new code in Acme Rewards/);
    });
  });

  describe("wrong and late texts", () => {
    it("a wrong code keeps the challenge pending; the reply says so and asks for a new challenge", async () => {
      const created = await createChallenge(t);
      const result = await textFor(t, created.id, { wrong: true });
      expect(result.text.text).toMatch(/^[0-9]{6}$/);
      expect(result.text.text).not.toBe(created.code);
      expect(result).toMatchObject({ outcome: "wrong_code", challenge: { status: "pending" } });
      expect(result.reply.text).toBe(
        "That code doesn't match. Please request a new code in Acme Rewards and text it here.",
      );
    });

    it("4 wrong texts, then the right one: verified", async () => {
      const created = await createChallenge(t);
      for (let i = 0; i < 4; i++) expect((await textFor(t, created.id, { wrong: true })).outcome).toBe("wrong_code");
      expect((await textFor(t, created.id)).outcome).toBe("verified");
      expect((await challenge(t, created.id)).status).toBe("verified");
    });

    it("5 wrong texts: the challenge stays pending but no longer matches its own code", async () => {
      const created = await createChallenge(t);
      for (let i = 0; i < 5; i++) await textFor(t, created.id, { wrong: true });
      const result = await textFor(t, created.id);
      expect(result).toMatchObject({ outcome: "locked", challenge: { status: "pending", verified_at: null } });
      expect(result.reply.text).toBe(
        "Too many wrong codes. Please request a new code in Acme Rewards and text it here.",
      );
      expect((await t.otp("POST", `/v1/challenges/${created.id}/consume`)).body.error).toBe("not_verified");
      await t.advance(600_000);
      expect((await challenge(t, created.id)).status).toBe("expired");
    });

    it("the right code after expiry: the challenge is expired and the reply says the code expired", async () => {
      const created = await createChallenge(t);
      await t.advance(600_000);
      const result = await textFor(t, created.id);
      expect(result).toMatchObject({ outcome: "expired", challenge: { status: "expired", verified_at: null } });
      expect(result.reply.text).toBe(
        "That code has expired. Please request a new code in Acme Rewards and text it here.",
      );
    });

    it("a wrong code counts against each of the phone's pending challenges, of any app", async () => {
      const ours = await createChallenge(t);
      const theirs = await createChallenge(t, PHONE, OTP_KEYS.beta);
      const wrong = ["000000", "111111", "222222"].find((code) => code !== ours.code && code !== theirs.code) as string;
      for (let i = 0; i < 5; i++) await textFrom(t, PHONE, wrong);
      expect((await textFor(t, ours.id)).outcome).toBe("locked");
      expect((await textFrom(t, PHONE, theirs.code)).outcome).toBe("locked");
    });

    it("a new challenge after a locked one verifies normally", async () => {
      const first = await createChallenge(t);
      for (let i = 0; i < 5; i++) await textFor(t, first.id, { wrong: true });
      const second = await createChallenge(t);
      expect(second.code).not.toBe(first.code);
      expect((await textFor(t, second.id)).outcome).toBe("verified");
    });
  });

  describe("texts that are ignored (no reply, nothing changes)", () => {
    it.each([
      ["with other words", { text: "my code is CODE" }],
      ["with the digits spaced out", { text: "SPACED" }],
      ["from a group chat", { members: ["+14155550125"] }],
      ["from another phone", { from: OTHER_PHONE }],
    ])("a text %s", async (_name, body) => {
      const created = await createChallenge(t);
      const spaced = `${created.code.slice(0, 3)} ${created.code.slice(3)}`;
      const input = {
        ...body,
        ...("text" in body ? { text: body.text.replace("CODE", created.code).replace("SPACED", spaced) } : {}),
      };
      const result = await textFor(t, created.id, input);
      expect(result).toMatchObject({ outcome: "ignored", reply: null, challenge: { status: "pending" } });
      expect(result.explanation).toEqual(expect.any(String));
    });

    it("ignored texts do not count as wrong: 4 wrong, every ignored kind, then the right one verifies", async () => {
      const created = await createChallenge(t);
      for (let i = 0; i < 4; i++) await textFor(t, created.id, { wrong: true });
      await textFor(t, created.id, { text: `code ${created.code}` });
      await textFor(t, created.id, { members: ["+14155550125", "+14155550126"] });
      await textFor(t, created.id, { from: OTHER_PHONE });
      expect((await textFor(t, created.id)).outcome).toBe("verified");
    });

    it("the code texted from another phone that has its own challenge is a wrong text for that phone's", async () => {
      const mine = await createChallenge(t);
      const other = await createChallenge(t, OTHER_PHONE);
      const result = await textFor(t, mine.id, { from: OTHER_PHONE });
      expect(mine.code).not.toBe(other.code);
      expect(result).toMatchObject({ outcome: "wrong_code", challenge: { id: mine.id, status: "pending" } });
      expect(result.text.phone).toBe(OTHER_PHONE);
    });
  });

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
