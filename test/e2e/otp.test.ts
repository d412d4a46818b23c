import { beforeEach, describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { KEYS, spawnInPty } from "../helpers/pty.js";
import { startRequestTap } from "../helpers/request-tap.js";

const OTP_KEY = "otp_live_acme_000000000000000";
const PHONE = "+14155550123";

describe("msgctl otp, wait otp, simulate otp-fault, end to end (README.md)", () => {
  const sandbox = useServe();
  const otp = (...args: string[]) => sandbox.cli(...args, "--otp-api-key", OTP_KEY);
  const otpJson = (...args: string[]) => sandbox.json(...args, "--otp-api-key", OTP_KEY);
  /** Flags for a process started on its own (in a terminal, or to be signalled). */
  const ptyFlags = () => [
    "--base-url",
    sandbox.serve.ready.base_url,
    "--otp-url",
    sandbox.serve.ready.otp_url,
    "--otp-api-key",
    OTP_KEY,
  ];
  beforeEach(() => sandbox.reset());

  it("create, text (the reply the user got), consume once, and the thread", async () => {
    const created = await otpJson("otp", "create", "--phone", "(415) 555-0123");
    expect(created).toMatchObject({
      phone: PHONE,
      code: expect.stringMatching(/^\d{6}$/),
      send_to: { number: "+14155550190" },
    });

    const wrong = await otp("otp", "text", created.id, "--wrong");
    expect(wrong.code, wrong.stderr).toBe(0);
    expect(wrong.stdout).toContain(
      "OTP    That code doesn't match. Please request a new code in Acme and text it here.",
    );
    expect(wrong.stdout).toContain(`Challenge ${created.id} is pending.`);

    const right = await otpJson("otp", "text", created.id);
    expect(right).toMatchObject({ id: created.id, status: "verified", verified_at: expect.any(String) });
    expect(Object.keys(right)).toEqual([
      "id",
      "status",
      "phone",
      "expires_at",
      "verified_at",
      "consumed_at",
      "created_at",
    ]);

    expect((await otpJson("otp", "consume", created.id)).status).toBe("consumed");
    const again = await otp("otp", "consume", created.id);
    expect(again.code).toBe(1);
    expect(again.stdout).toBe("");
    expect(again.stderr).toMatch(/already_consumed: .*\(request id req_/);

    const thread = await otp("otp", "thread", PHONE);
    expect(thread.stdout.split("\n").filter((line) => / (phone|OTP) +/.test(line))).toHaveLength(4);
    expect(thread.stdout).toContain("[verified]");
  });

  it("otp get, and the ignored texts print no reply", async () => {
    const created = await otpJson("otp", "create", "--phone", PHONE);
    const words = await otp("otp", "text", created.id, "--text", `my code is ${created.code}`);
    expect(words.stdout).toContain("No reply: Only a bare six-digit code is read");
    const group = await otp("otp", "text", created.id, "--members", "+14155550125,+14155550126");
    expect(group.stdout).toContain("(group with +14155550125, +14155550126)");
    expect(group.stdout).toContain("No reply: Texts from group chats are ignored");
    const other = await otp("otp", "text", created.id, "--from", "+14155550124", "--channel", "sms");
    expect(other.stdout).toContain("+14155550124 texted +14155550190 over SMS");
    const got = await otp("otp", "get", created.id);
    expect(got.stdout).toMatch(/status +pending/);
  });

  it("wait otp returns once another process moved the clock past the expiry, and exits 1 at once when the status cannot come", async () => {
    const created = await otpJson("otp", "create", "--phone", PHONE);
    const tap = await startRequestTap(sandbox.serve.ready.otp_url);
    const waiting = runCli([
      "wait",
      "otp",
      created.id,
      "--status",
      "expired",
      "--timeout",
      "15s",
      "--json",
      "--base-url",
      sandbox.serve.ready.base_url,
      "--otp-url",
      tap.url,
      "--api-key",
      "sk_test_acme_0000000000000000",
      "--otp-api-key",
      OTP_KEY,
    ]);
    // Once the wait has seen the challenge pending, move the clock from another process.
    await tap.seen(new RegExp(`^GET /v1/challenges/${created.id}$`));
    await sandbox.json("clock", "advance", "10m");
    const waited = await waiting;
    await tap.close();
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout).status).toBe("expired");
    const never = await otp("wait", "otp", created.id, "--status", "verified", "--timeout", "10s");
    expect(never.code).toBe(1);
    expect(never.stderr).toMatch(/is expired: it will not be verified/);
  });

  it("simulate otp-fault unavailable makes the OTP /v1 answer 503 until --off", async () => {
    expect(await otpJson("simulate", "otp-fault", "unavailable")).toEqual({ unavailable: true });
    const refused = await otp("otp", "create", "--phone", PHONE);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unavailable: Verification is temporarily unavailable/);
    expect((await fetch(`${sandbox.serve.ready.otp_url}/healthz`)).status).toBe(200);
    const off = await otp("simulate", "otp-fault", "unavailable", "--off");
    expect(off.stdout).toContain("available again");
    expect((await otp("otp", "create", "--phone", PHONE)).code).toBe(0);
  });

  it("Ctrl-C ends a `wait otp` spinning in a terminal at once with exit 130", async () => {
    const created = await otpJson("otp", "create", "--phone", PHONE);
    const term = spawnInPty(["wait", "otp", created.id, "--status", "verified", "--timeout", "60s", ...ptyFlags()]);
    await term.waitFor(`Waiting for ${created.id} to be verified`);
    term.type(KEYS.ctrlC);
    expect(await term.exited).toBe(130);
  });

  it("SIGTERM ends a `wait otp` without a terminal at once with exit 143", async () => {
    const created = await otpJson("otp", "create", "--phone", PHONE);
    const tap = await startRequestTap(sandbox.serve.ready.otp_url);
    const waiting = spawnCli([
      "wait",
      "otp",
      created.id,
      "--status",
      "verified",
      "--timeout",
      "60s",
      ...ptyFlags(),
      "--otp-url",
      tap.url,
    ]);
    // Nothing is printed while it waits: its first poll says it is waiting.
    await tap.seen(new RegExp(`^GET /v1/challenges/${created.id}$`));
    expect(await waiting.stop("SIGTERM")).toBe(143);
    await tap.close();
  });

  it.each([
    [["otp", "create"]],
    [["otp", "text", "chal_x", "--code", "123456", "--wrong"]],
    [["otp", "text", "chal_x", "--channel", "fax"]],
    [["wait", "otp", "chal_x", "--status", "done"]],
    [["simulate", "otp-fault", "melted"]],
  ])("exits 2 on the usage error %j", async (args) => {
    const result = await otp(...args);
    expect(result.code, result.stderr).toBe(2);
  });

  it("otp walkthrough in a real terminal: the person's choices are typed, the app polls and consumes", async () => {
    const term = spawnInPty(["otp", "walkthrough", ...ptyFlags()]);
    await term.waitFor("The user's phone number");
    term.type(KEYS.enter); // the default phone
    await term.waitFor("What happens next?");
    const code = /Text (\d{6}) to \(415\) 555-0190/.exec(term.screen())?.[1];
    expect(code).toBeDefined();

    let mark = term.screen().length;
    term.type(KEYS.down + KEYS.down + KEYS.enter); // the user texts a wrong code
    await term.waitFor(/Still pending: the app keeps polling[\s\S]*What happens next\?/, mark);
    expect(term.screen().slice(mark)).toContain("That code doesn't match.");

    mark = term.screen().length;
    term.type(KEYS.enter); // the user texts the right code
    await term.waitFor("Consumed: sign-in is complete", mark);
    expect(await term.exited).toBe(0);
    const after = term.screen().slice(mark);
    expect(after).toContain(`phone  ${code}  [verified]`);
    expect(after).toMatch(/polls GET \/v1\/challenges\/chal_\w+: verified/);
    expect(after).toMatch(/consume: 200, consumed at/);
  });

  it("Ctrl-C in a walkthrough prompt leaves with exit 130 and no crash report", async () => {
    const term = spawnInPty(["otp", "walkthrough", ...ptyFlags()]);
    await term.waitFor("The user's phone number");
    term.type(KEYS.enter);
    await term.waitFor("What happens next?");
    term.type(KEYS.ctrlC);
    expect(await term.exited).toBe(130);
    expect(term.screen()).not.toContain("crashed");
  });
});
