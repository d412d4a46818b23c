import { describe, expect, it } from "vitest";
import { cryptoIds, type IdSource } from "../../src/lib/ids.js";
import { createChallenge, OTP_FIXTURE, OTP_KEYS, PHONE, textFor } from "../helpers/otp.js";
import { useSandbox } from "../helpers/sandbox.js";

/** Random ids, but the digits codes are drawn from come from a script (16-character tokens). */
function scriptedCodes(draws: string[]): IdSource {
  const random = cryptoIds();
  return {
    uuid: random.uuid,
    token: (length) => (length === 16 && draws.length > 0 ? (draws.shift() as string) : random.token(length)),
  };
}

const draws: string[] = [];

describe("OTP codes: six random digits, unique among the phone's live challenges (spec sections 2, 8)", () => {
  const t = useSandbox({ fixture: OTP_FIXTURE, ids: scriptedCodes(draws) });

  it("draws the digits of the id source's tokens, leading zeros included", async () => {
    draws.push("ab0c1d2e3f4g5h6i");
    expect((await createChallenge(t, "+14155550140")).code).toBe("012345");
  });

  it("draws again when the phone has a live challenge with that code, of any account", async () => {
    draws.push("111111xxxxxxxxxx", "111111xxxxxxxxxx", "222222xxxxxxxxxx");
    const first = await createChallenge(t, PHONE);
    const second = await createChallenge(t, PHONE, OTP_KEYS.beta);
    expect([first.code, second.code]).toEqual(["111111", "222222"]);
  });

  it("reuses a code on another phone, and on the same phone once the challenge with it is no longer live", async () => {
    draws.push("111111xxxxxxxxxx");
    expect((await createChallenge(t, "+14155550141")).code).toBe("111111");
    await t.advance(600_000);
    draws.push("111111xxxxxxxxxx");
    const again = await createChallenge(t, PHONE);
    expect(again.code).toBe("111111");
    expect((await textFor(t, again.id)).outcome).toBe("verified");
  });
});
