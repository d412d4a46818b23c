import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { otpWalkthrough, type WalkthroughPrompts } from "../../src/cli/commands/otp-walkthrough.js";
import { createOutput } from "../../src/cli/output.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

/** Prompts that answer from a script, in order, and record the questions and the choices offered. */
function scripted(answers: string[]): WalkthroughPrompts & { asked: string[]; offered: string[][] } {
  const asked: string[] = [];
  const offered: string[][] = [];
  const next = <T>(message: string, fallback?: T): Promise<T> => {
    asked.push(message);
    if (answers.length === 0) throw new Error(`no answer for "${message}"`);
    const answer = answers.shift();
    return Promise.resolve((answer === "" ? fallback : answer) as T);
  };
  return {
    asked,
    offered,
    input: (config) => next(config.message, config.default),
    select: (config) => {
      offered.push(config.choices.map((choice) => choice.value));
      return next(config.message);
    },
  };
}

function capture() {
  const lines: string[] = [];
  const out = createOutput({
    json: false,
    color: false,
    interactive: false,
    stdout: (text) => lines.push(text),
    stderr: (text) => lines.push(text),
  });
  return { out, text: () => lines.join("") };
}

describe("msgctl otp walkthrough, with scripted answers (README.md)", () => {
  let sandbox: StartedSandbox;
  let flags: Record<string, string>;
  beforeAll(async () => {
    sandbox = await startSandbox();
    flags = {
      baseUrl: sandbox.baseUrl,
      otpUrl: sandbox.otpUrl,
      apiKey: sandbox.apiKey,
      otpApiKey: sandbox.otpApiKey,
      stateDir: "/nonexistent",
    };
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox?.stop());

  const walk = async (answers: string[]) => {
    const prompts = scripted(answers);
    const { out, text } = capture();
    const result = await otpWalkthrough(flags, out, prompts, 1);
    return { result, text: text(), prompts };
  };

  it("creates a challenge, shows what the app shows, and on the right code polls, consumes and explains", async () => {
    const { result, text, prompts } = await walk(["", "right"]);
    expect(prompts.asked).toEqual(["The user's phone number", "What happens next?"]);
    expect(prompts.offered[0]).toEqual([
      "right",
      "whatsapp",
      "wrong",
      "other-phone",
      "words",
      "late",
      "consume",
      "quit",
    ]);
    expect(result).toMatchObject({ status: "consumed", phone: "+14155550123" });
    expect(text).toMatch(/Text \d{6} to \(415\) 555-0190/);
    expect(text).toMatch(/\[Text the code\] +sms:\+14155550190\?&body=\d{6}/);
    expect(text).toMatch(/\[Open WhatsApp\] +https:\/\/wa\.me\/14155550189\?text=\d{6}/);
    expect(text).toContain("OTP    Your phone number is verified for Acme.");
    expect(text).toMatch(/polls GET \/v1\/challenges\/chal_\w+: verified/);
    expect(text).toMatch(/Verified: .*the app consumes the challenge, once/);
    expect(text).toMatch(/consume: 200, consumed at/);
    expect(text).toContain("Consumed: sign-in is complete");
  });

  it("explains a consume before the text (409 not_verified), a wrong code, and ignored texts, then verifies", async () => {
    const { result, text } = await walk(["(415) 555-0134", "consume", "wrong", "words", "other-phone", "whatsapp"]);
    expect(result?.status).toBe("consumed");
    expect(text).toContain("409 not_verified: the user's text has not arrived yet");
    expect(text).toContain("That code doesn't match. Please request a new code in Acme");
    expect(text).toContain("No reply: Only a bare six-digit code is read");
    expect(text).toContain("No reply: No app has asked to verify this phone");
    expect(text).toMatch(/texted \+14155550189 over WhatsApp/);
    expect(text.match(/Still pending: the app keeps polling/g)).toHaveLength(3);
  });

  it("after 5 wrong texts the right code no longer matches; the person can stop there", async () => {
    const { result, text } = await walk(["", "wrong", "wrong", "wrong", "wrong", "wrong", "right", "quit"]);
    expect(result?.status).toBe("pending");
    expect(text).toContain("Too many wrong codes.");
    expect(text).toMatch(/Stopped\. Challenge chal_\w+ stays pending/);
  });

  it("a late text (after a 10-minute clock advance) finds the challenge expired, and consume explains 410", async () => {
    const { result, text } = await walk(["", "late"]);
    expect(result?.status).toBe("expired");
    expect(text).toContain("the sandbox clock moved 10 minutes");
    expect(text).toContain("That code has expired. Please request a new code in Acme");
    expect(text).toMatch(/Expired: 10 minutes passed without a consume/);
    expect(text).toContain("410 expired: the challenge expired before it was consumed");
  });

  it("explains a refused creation and exits with the API error", async () => {
    await sandbox.otp.fault("unavailable");
    const { out, text } = capture();
    await expect(otpWalkthrough(flags, out, scripted([""]), 1)).rejects.toMatchObject({ code: "unavailable" });
    expect(text()).toContain("503 unavailable: verification is down");
    await sandbox.otp.fault("unavailable", { off: true });
  });

  it("refuses to run without a terminal or with --json (usage errors)", async () => {
    await expect(otpWalkthrough(flags, capture().out)).rejects.toThrow(/asks questions: run it in a terminal/);
    const json = createOutput({ json: true, color: false, stdout: () => {}, stderr: () => {} });
    await expect(otpWalkthrough(flags, json, scripted([]))).rejects.toThrow(/--json does not apply/);
  });
});

describe("msgctl otp walkthrough on a real clock", () => {
  it("says the clock cannot skip 10 minutes, and goes on", async () => {
    const sandbox = await startSandbox({ clock: "real" });
    try {
      const flags = {
        baseUrl: sandbox.baseUrl,
        otpUrl: sandbox.otpUrl,
        otpApiKey: sandbox.otpApiKey,
        stateDir: "/nonexistent",
      };
      const { out, text } = capture();
      const result = await otpWalkthrough(flags, out, scripted(["", "late", "right"]), 1);
      expect(text()).toContain("The sandbox clock is real, so 10 minutes cannot be skipped");
      expect(result?.status).toBe("consumed");
    } finally {
      await sandbox.stop();
    }
  });
});
