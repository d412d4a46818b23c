import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, startSandbox } from "../../src/index.js";

/**
 * `startSandbox()`'s options are checked before anything starts (docs/sandbox.md, "In a test
 * suite"): a mistake is an AppError (exported) that names the option, never a silent default.
 */
describe("startSandbox() options", () => {
  const refused = async (options: Parameters<typeof startSandbox>[0], message: RegExp) => {
    const error = await startSandbox(options).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_request");
    expect((error as Error).message).toMatch(message);
  };

  it("refuses a clock that is neither manual nor real (it started a real one)", async () => {
    await refused({ clock: "fast" as "real" }, /^clock: must be "manual" or "real" \(got "fast"\)$/);
  });

  it("refuses a fixture that is neither a path nor an object (42 was read as a file descriptor)", async () => {
    await refused(
      { fixture: 42 as unknown as object },
      /^fixture: must be a file path or a fixture object \(got number\)$/,
    );
  });

  it("refuses unknown settings and values out of range (a typo changed nothing, silently)", async () => {
    await refused({ settings: { sendLatencyMs: -5000 } }, /^settings\.sendLatencyMs: must be at least 0$/);
    await refused({ settings: { sendLatencyMS: 5 } as object }, /^settings: Unrecognized key.*sendLatencyMS/);
  });

  it("refuses a chaos seed or profile it cannot use, naming chaos.seed or chaos.profile, before a database is made", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-chaos-")), "sandbox.db");
    await refused({ db, chaos: { seed: "" } }, /^chaos\.seed: must not be empty$/);
    await refused(
      { db, chaos: { seed: 1.5 } },
      /^chaos\.seed: must be a string of 1-200 characters or a whole number$/,
    );
    await refused(
      { db, chaos: { seed: 1, profile: "wild" as "mild" } },
      /^chaos\.profile: must be one of "mild", "rough"$/,
    );
    await refused({ db, chaos: "42" as unknown as { seed: string } }, /^chaos: /);
    expect(existsSync(db)).toBe(false);
  });

  it("names a database path it cannot open", async () => {
    // A folder that is a file: neither it nor the database can be made.
    const file = join(mkdtempSync(join(tmpdir(), "msgctl-db-")), "a-file");
    writeFileSync(file, "");
    await refused({ db: join(file, "sandbox.db") }, /^Cannot open the database .*a-file\/sandbox\.db: /);
    await refused({ db: "/proc/sandbox.db" }, /^Cannot open the database \/proc\/sandbox\.db: /);
  });

  it("refuses to reuse a database whose keys were generated at an earlier start (the handle could never authenticate)", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-reuse-")), "sandbox.db");
    const fixture = {
      accounts: [{ name: "Gen", numbers: [{ handle: "+14155550171", channels: ["imessage", "sms"] }] }],
    };
    const first = await startSandbox({ db, fixture });
    expect(first.apiKey).toMatch(/^sk_test_/);
    await first.stop();
    await refused(
      { db, fixture },
      /^startSandbox: the keys of account "Gen" in .*sandbox\.db were generated at an earlier start/,
    );
    // With the keys named, the same database serves again.
    const named = { accounts: [{ ...fixture.accounts[0], api_key: first.apiKey, otp_api_key: first.otpApiKey }] };
    const again = await startSandbox({ db, fixture: named });
    expect((await again.client.numbers.list()).map((n) => n.handle)).toEqual(["+14155550171"]);
    await again.stop();
  });

  it("holds its database file: a second startSandbox({ db }) on it throws database_locked naming the file and the pid, until stop()", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-held-")), "sandbox.db");
    const first = await startSandbox({ db });
    const error = await startSandbox({ db }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "database_locked" });
    expect((error as Error).message).toContain(db);
    expect((error as Error).message).toContain(`pid ${process.pid}`);
    // The first one was not disturbed.
    expect((await first.client.numbers.list()).length).toBeGreaterThan(0);
    await first.stop();
    const second = await startSandbox({ db });
    await second.stop();
  });

  it("ends a waitForEvent still pending when the sandbox stops; an unknown account rejects, it does not throw", async () => {
    const sandbox = await startSandbox();
    const unknown = sandbox.waitForEvent("message.read", { account: "Nope" });
    await expect(unknown).rejects.toThrow(/No account named "Nope"/);
    const pending = sandbox.waitForEvent("message.read", { timeout: 60_000 });
    await sandbox.stop();
    await expect(pending).rejects.toThrow("No message.read event: the sandbox stopped");
  });
});
