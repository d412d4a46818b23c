import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { runCli } from "../helpers/cli.js";

/**
 * `msgctl otp text --json` prints the challenge (its documented shape); with `--outcome` it
 * prints what the text did beside it, so a script tells a wrong code from an ignored text or a
 * locked challenge without reading the human output.
 */
describe("msgctl otp text --outcome --json", () => {
  let sandbox: StartedSandbox;
  let otp: (...args: string[]) => Promise<any>;
  beforeAll(async () => {
    sandbox = await startSandbox();
    const flags = ["--otp-url", sandbox.otpUrl, "--otp-api-key", sandbox.otpApiKey, "--state-dir", "/nonexistent"];
    otp = async (...args: string[]) => {
      const result = await runCli([...args, "--json", ...flags]);
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout);
    };
  });
  afterAll(() => sandbox?.stop());

  it("without --outcome prints the challenge alone, as documented", async () => {
    const created = await otp("otp", "create", "--phone", "+14155550142");
    const printed = await otp("otp", "text", created.id, "--wrong");
    expect(printed).toMatchObject({ id: created.id, status: "pending" });
    expect(printed.outcome).toBeUndefined();
  });

  it("prints { challenge, outcome, reply, explanation } for a wrong code, an ignored text and the right code", async () => {
    const created = await otp("otp", "create", "--phone", "+14155550143");
    const wrong = await otp("otp", "text", created.id, "--wrong", "--outcome");
    expect(Object.keys(wrong).sort()).toEqual(["challenge", "explanation", "outcome", "reply"]);
    expect(wrong).toMatchObject({
      challenge: { id: created.id, status: "pending" },
      outcome: "wrong_code",
      reply: expect.stringContaining("doesn't match"),
      explanation: expect.any(String),
    });

    const ignored = await otp("otp", "text", created.id, "--text", `my code is ${created.code}`, "--outcome");
    expect(ignored).toMatchObject({ outcome: "ignored", reply: null, challenge: { status: "pending" } });

    const right = await otp("otp", "text", created.id, "--outcome");
    expect(right).toMatchObject({
      outcome: "verified",
      reply: expect.stringContaining("verified"),
      challenge: { id: created.id, status: "verified" },
    });
  });

  it("tells a locked challenge after five wrong texts", async () => {
    const created = await otp("otp", "create", "--phone", "+14155550144");
    for (let i = 0; i < 5; i++) await otp("otp", "text", created.id, "--wrong");
    const locked = await otp("otp", "text", created.id, "--outcome");
    expect(locked).toMatchObject({ outcome: "locked", challenge: { status: "pending" } });
  });
});
