import { describe, expect, it } from "vitest";
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
  OTHER_PHONE,
} from "../helpers/otp.js";
import { useSandbox } from "../helpers/sandbox.js";

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
});
