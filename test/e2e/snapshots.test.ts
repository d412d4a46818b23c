import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, runCli, spawnServe, type ServeProcess } from "../helpers/cli.js";

/**
 * Snapshots end to end over the real CLI: `msgctl snapshot save|restore|list|delete|export|import`
 * against a `serve` on a database file that other commands find through its state file, the
 * snapshots kept across a restart, and `serve --restore FILE`.
 */

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";
const SQLITE_MAGIC = "SQLite format 3\u0000";

const dir = mkdtempSync(join(tmpdir(), "msgctl-snapshots-e2e-"));
/** A file that is no snapshot, long enough to have a header's hundred bytes. */
const notSnapshot = join(dir, "notes.txt");
writeFileSync(notSnapshot, "not a snapshot at all ".repeat(10));
const serveArgs = ["--port", "0", "--otp-port", "0", "--clock", "manual"];
/** `msgctl ARGS` in the served directory: the state file tells it where the sandbox is. */
const cli = (...args: string[]) => runCli(args, { cwd: dir });
const json = async (...args: string[]) => {
  const result = await cli(...args, "--json");
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};
const KEY = "sk_test_acme_0000000000000000";
let baseUrl = "";
/** Set-up and checks over HTTP, sparing a CLI process each: the commands under test are `snapshot …`. */
const api = (method: string, path: string, body?: unknown) => callApi(baseUrl, method, path, body, KEY);
const send = (text: string) => api("POST", "/v1/messages", { from_handle: NUMBER, to: CONTACT, text });
const texts = async () => ((await api("GET", "/v1/messages")) as { text: string }[]).map((m) => m.text);

// Each test runs the CLI several times: on a loaded machine a start takes seconds.
describe("msgctl snapshot against `serve` on a database file", { timeout: 180_000 }, () => {
  let serve: ServeProcess;
  const startServe = async () => {
    serve = await spawnServe(serveArgs, { cwd: dir });
    baseUrl = serve.ready.base_url;
  };
  beforeAll(startServe);
  afterAll(async () => {
    if (serve?.child.exitCode === null) await serve.stop();
  });

  it("save, list, restore and delete: with --json the resources, without them lines for people", async () => {
    await send("before");
    const saved = await json("snapshot", "save", "before");
    expect(saved).toMatchObject({ name: "before", format: 1, problem: null, clock: { mode: "manual" } });
    expect(saved.size_bytes).toBeGreaterThan(0);
    // Beside the state file.
    expect(readdirSync(join(dir, ".msgctl", "snapshots"))).toEqual(["before.msgctl-snapshot"]);

    const human = await cli("snapshot", "save", "second");
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Saved snapshot second \(\d+\.\d KiB, clock \d{4}-\d\d-\d\dT[\d:.]+Z\)\n$/);
    expect((await json("snapshot", "list")).map((s: { name: string }) => s.name)).toEqual(["before", "second"]);
    const listed = await cli("snapshot", "list");
    expect(listed.stdout).toMatch(/^NAME\s+SAVED\s+CLOCK\s+SIZE\s+MSGCTL\n/);
    expect(listed.stdout).toMatch(/^before\s+\S+Z\s+\S+Z \(manual\)\s+[\d.]+ KiB\s+\d+\.\d+\.\d+/m);

    await send("after");
    await api("POST", "/sandbox/v1/clock/advance", { duration: "1h" });
    expect(await texts()).toEqual(["after", "before"]);
    const restored = await json("snapshot", "restore", "before");
    expect(restored).toMatchObject({
      snapshot: { name: "before" },
      clock: saved.clock,
      accounts: [{ name: "Acme", api_key: "sk_test_acme_0000000000000000" }],
    });
    expect(await texts()).toEqual(["before"]);
    expect((await api("GET", "/sandbox/v1/clock")).now).toBe(saved.clock.now);
    const again = await cli("snapshot", "restore", "before");
    expect(again.stdout).toMatch(/^Restored snapshot before \(saved \S+\); clock \S+\nACCOUNT\s+API KEY/);

    expect(await json("snapshot", "delete", "second")).toEqual({ name: "second", deleted: true });
    const gone = await cli("snapshot", "restore", "second", "--json");
    expect(gone.code).toBe(1);
    expect(JSON.parse(gone.stdout)).toMatchObject({
      error: "not_found",
      message: "Snapshot second not found",
      status: 404,
    });
    const bad = await cli("snapshot", "save", "a b");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("name: must be 1 to 64 letters, digits, dots, dashes or underscores");
  });

  it("export writes one file (folders made); import keeps it under its file name or --name", async () => {
    await json("snapshot", "save", "shared");
    const file = join(dir, "out", "nested", "shared.msgctl-snapshot");
    const exported = await cli("snapshot", "export", "shared", "-o", file);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/^Exported snapshot shared to .*shared\.msgctl-snapshot \([\d.]+ KiB\)\n$/);
    expect(readFileSync(file).subarray(0, 16).toString("latin1")).toBe(SQLITE_MAGIC);
    // Nothing half-written is left beside it.
    expect(readdirSync(join(dir, "out", "nested"))).toEqual(["shared.msgctl-snapshot"]);

    await json("snapshot", "delete", "shared");
    expect(await json("snapshot", "import", file)).toMatchObject({ name: "shared", problem: null });
    expect(await json("snapshot", "import", file, "--name", "copy.v2")).toMatchObject({ name: "copy.v2" });

    const refused = await cli("snapshot", "import", notSnapshot, "--name", "notes", "--json");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: "invalid_request", status: 400 });
    expect(JSON.parse(refused.stdout).message).toContain("is not a msgctl snapshot");
    const unnamed = await cli("snapshot", "import", join(dir, "my notes.msgctl-snapshot"));
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain("give one with --name");
    const missing = await cli("snapshot", "import", join(dir, "nothing.msgctl-snapshot"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
    const unwritable = await cli("snapshot", "export", "shared", "-o", join(notSnapshot, "x.msgctl-snapshot"));
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toContain("cannot write there");
  });

  it("the snapshots outlive a restart of serve and restore there; an export imports there too", async () => {
    await api("POST", "/sandbox/v1/reset", {});
    await send("kept over a restart");
    await json("snapshot", "save", "restart");
    const file = join(dir, "restart.msgctl-snapshot");
    await json("snapshot", "export", "restart", "-o", file);
    expect(await serve.stop()).toBe(0);
    await startServe();
    await api("POST", "/sandbox/v1/reset", {});
    expect(await texts()).toEqual([]);
    expect((await json("snapshot", "list")).map((s: { name: string }) => s.name)).toContain("restart");
    await json("snapshot", "restore", "restart");
    expect(await texts()).toEqual(["kept over a restart"]);

    await api("POST", "/sandbox/v1/reset", {});
    expect(await json("snapshot", "import", file, "--name", "from-file")).toMatchObject({ name: "from-file" });
    await json("snapshot", "restore", "from-file");
    expect(await texts()).toEqual(["kept over a restart"]);
  });

  it("serve --restore FILE starts another sandbox from an export, ignoring --fixture with a note", async () => {
    await api("POST", "/sandbox/v1/reset", {});
    await api("POST", "/sandbox/v1/accounts", { name: "Globex" });
    await send("exported state");
    const saved = await json("snapshot", "save", "to-ship");
    const file = join(dir, "to-ship.msgctl-snapshot");
    await json("snapshot", "export", "to-ship", "-o", file);

    const other = mkdtempSync(join(tmpdir(), "msgctl-restore-e2e-"));
    const started = await spawnServe(
      [...serveArgs, "--db", ":memory:", "--no-state-file", "--restore", file, "--fixture", "missing.json"],
      { cwd: other },
    );
    try {
      expect(started.ready.accounts.map((a) => a.name)).toEqual(["Acme", "Globex"]);
      expect(started.stderr.join("")).toContain(
        `note: --fixture missing.json is ignored: the sandbox starts from the snapshot ${file}`,
      );
      baseUrl = started.ready.base_url;
      expect(await texts()).toEqual(["exported state"]);
      // A manual clock starts at the snapshot's time.
      expect((await api("GET", "/sandbox/v1/clock")).now).toBe(saved.clock.now);
    } finally {
      baseUrl = serve.ready.base_url;
      await started.stop();
    }
    expect(existsSync(join(other, ".msgctl"))).toBe(false);
  });

  it("serve --restore with a file that is missing or no snapshot exits 1 (invalid_snapshot), naming it", async () => {
    for (const [file, said] of [
      [join(dir, "nothing.msgctl-snapshot"), "does not exist"],
      [notSnapshot, "is not a msgctl snapshot"],
    ] as const) {
      const result = await runCli([
        "serve",
        "--json",
        ...serveArgs,
        "--db",
        ":memory:",
        "--no-state-file",
        "--restore",
        file,
      ]);
      expect(result.code).toBe(1);
      const printed = JSON.parse(result.stdout);
      expect(printed).toMatchObject({ error: "invalid_snapshot", message: expect.stringContaining(`${file} ${said}`) });
    }
  });
});
