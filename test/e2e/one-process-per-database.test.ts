import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { spawnRaw } from "../helpers/serve-process.js";

/** One process per database, one sandbox per state directory (docs/sandbox.md). */

const fresh = () => mkdtempSync(join(tmpdir(), "msgctl-one-"));
const serveArgs = (...extra: string[]) => ["serve", "--json", "--port", "0", "--otp-port", "0", ...extra];
const running: ReturnType<typeof spawnRaw>[] = [];

/** Starts a serve and resolves with it and its ready line. */
async function started(args: string[], cwd: string) {
  const serve = spawnRaw(args, { cwd });
  running.push(serve);
  return { serve, ready: await serve.ready() };
}

afterAll(async () => {
  for (const serve of running) {
    if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill("SIGTERM");
    await serve.exited;
  }
});

describe("a serving process holds its database file", () => {
  it("a second serve on the same file exits 1, database_locked, naming the file and the pid, writing nothing", async () => {
    const dir = fresh();
    const db = join(dir, "data", "sandbox.db");
    const { serve: first } = await started(serveArgs("--db", db, "--state-dir", join(dir, "first")), dir);
    const second = await runCli(serveArgs("--db", db, "--state-dir", join(dir, "second")), { cwd: dir });
    expect(second.code).toBe(1);
    expect(second.stderr).toBe("");
    const failure = JSON.parse(second.stdout);
    expect(failure).toEqual({ error: "database_locked", message: expect.any(String) });
    expect(failure.message).toContain(db);
    expect(failure.message).toContain(`pid ${first.child.pid}`);
    expect(existsSync(join(dir, "second"))).toBe(false);

    // Without --json: the same words on stderr, no stack trace.
    const human = await runCli(
      serveArgs("--db", db, "--no-state-file").filter((a) => a !== "--json"),
      { cwd: dir },
    );
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(
      new RegExp(
        `^error The database ${db.replace(/[/.]/g, "\\$&")} is in use by another process \\(pid ${first.child.pid}`,
      ),
    );
    expect(human.stderr).not.toMatch(/\n\s+at /);
  });

  it("a holder killed outright (SIGKILL) leaves no lock behind, and its stale state file is replaced", async () => {
    const dir = fresh();
    const { serve: first } = await started(serveArgs("--db", "sandbox.db"), dir);
    first.child.kill("SIGKILL");
    await first.exited;
    // The state file of the dead process is still there, naming a pid no longer running.
    expect(JSON.parse(readFileSync(join(dir, ".msgctl/sandbox.json"), "utf8")).pid).toBe(first.child.pid);
    const { serve: second, ready } = await started(serveArgs("--db", "sandbox.db"), dir);
    const state = JSON.parse(readFileSync(join(dir, ".msgctl/sandbox.json"), "utf8"));
    expect(state).toMatchObject({ pid: second.child.pid, base_url: ready.base_url });
  });

  it("a state file whose pid now belongs to another program is stale too", async () => {
    const dir = fresh();
    mkdirSync(join(dir, ".msgctl"));
    // This test's own pid: alive, but no sandbox answers at the url the file names.
    writeFileSync(
      join(dir, ".msgctl/sandbox.json"),
      JSON.stringify({ pid: process.pid, base_url: "http://127.0.0.1:9", otp_url: "http://127.0.0.1:9", accounts: [] }),
    );
    const { serve, ready } = await started(serveArgs("--db", ":memory:"), dir);
    const state = JSON.parse(readFileSync(join(dir, ".msgctl/sandbox.json"), "utf8"));
    expect(state).toMatchObject({ pid: serve.child.pid, base_url: ready.base_url });
  });
});

describe("one sandbox per state directory", () => {
  it("a second serve in the directory refuses: sandbox_running, naming the pid and base_url, pointing to --state-dir and --no-state-file", async () => {
    const dir = fresh();
    const { serve: first, ready } = await started(serveArgs("--db", "one.db"), dir);
    const second = await runCli(serveArgs("--db", "two.db"), { cwd: dir });
    expect(second.code).toBe(1);
    const failure = JSON.parse(second.stdout);
    expect(failure.error).toBe("sandbox_running");
    expect(failure.message).toContain(`pid ${first.child.pid}`);
    expect(failure.message).toContain(ready.base_url);
    expect(failure.message).toContain("--state-dir");
    expect(failure.message).toContain("--no-state-file");
    // The first one's state file is untouched, and its database never opened by the second.
    expect(JSON.parse(readFileSync(join(dir, ".msgctl/sandbox.json"), "utf8")).pid).toBe(first.child.pid);
    expect(existsSync(join(dir, "two.db"))).toBe(false);

    // With --no-state-file it may run beside it, on ports of its own.
    const { ready: beside } = await started(serveArgs("--db", "two.db", "--no-state-file"), dir);
    expect(beside.base_url).not.toBe(ready.base_url);
  });

  it("a second serve on a port the first holds names that sandbox, not only EADDRINUSE", async () => {
    const dir = fresh();
    const { serve: first, ready } = await started(serveArgs("--db", ":memory:"), dir);
    const port = new URL(ready.base_url).port;
    const clash = await runCli(
      ["serve", "--json", "--port", port, "--otp-port", "0", "--db", ":memory:", "--no-state-file"],
      {
        cwd: dir,
      },
    );
    expect(clash.code).toBe(1);
    const failure = JSON.parse(clash.stdout);
    expect(failure.error).toBe("port_in_use");
    expect(failure.message).toContain(`Cannot listen on 127.0.0.1:${port}`);
    expect(failure.message).toContain(`The msgctl sandbox pid ${first.child.pid} at ${ready.base_url} holds it`);
  });
});
