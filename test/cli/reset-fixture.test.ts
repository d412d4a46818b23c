import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnServe, type ServeProcess } from "../helpers/cli.js";

/** `msgctl reset --fixture FILE` checks the file on the user's side before the sandbox is wiped. */
describe("msgctl reset --fixture", () => {
  let serve: ServeProcess;
  let dir: string;
  const cli = (...args: string[]) => runCli(args, { cwd: dir });
  const accountNames = async () => {
    const result = await cli("accounts", "list", "--json");
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { name: string }[]).map((a) => a.name);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "msgctl-reset-"));
    serve = await spawnServe(["--port", "0", "--otp-port", "0", "--db", ":memory:", "--clock", "manual"], { cwd: dir });
  });
  afterAll(async () => {
    if (serve?.child.exitCode === null) await serve.stop();
  });

  it("an invalid file is refused with exit 2 naming the file and the field, and the sandbox is untouched", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ accounts: [{ name: "Beta", numbers: [{ handle: "not a number" }] }] }));
    const result = await cli("reset", "--fixture", bad);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("bad.json");
    expect(result.stderr).toContain("handle");
    expect(await accountNames()).toEqual(["Acme"]);
  });

  it("a valid file replaces the accounts", async () => {
    const good = join(dir, "good.json");
    writeFileSync(
      good,
      JSON.stringify({ accounts: [{ name: "Beta", numbers: [{ handle: "+14155550121", channels: ["sms"] }] }] }),
    );
    const result = await cli("reset", "--fixture", good, "--json");
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { accounts: { name: string }[] }).accounts.map((a) => a.name)).toEqual([
      "Beta",
    ]);
  });
});
