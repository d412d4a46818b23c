import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnServe, type ServeProcess } from "../helpers/cli.js";

/**
 * `--account NAME` selects an account of the state file. The sandbox keeps keys only as hashes,
 * so an account made on demand is selectable because `accounts create` keeps its keys there.
 */
describe("--account selects an account made with `msgctl accounts create` (README.md)", () => {
  let serve: ServeProcess;
  let dir: string;
  // Every command runs in the sandbox's directory and finds it through .msgctl/sandbox.json.
  const cli = (...args: string[]) => runCli(args, { cwd: dir });
  const json = async (...args: string[]) => {
    const result = await cli(...args, "--json");
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout);
  };
  const stateAccounts = () =>
    (
      JSON.parse(readFileSync(join(dir, ".msgctl", "sandbox.json"), "utf8")) as { accounts: { name: string }[] }
    ).accounts.map((a) => a.name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "msgctl-accounts-"));
    serve = await spawnServe(["--port", "0", "--otp-port", "0", "--db", ":memory:", "--clock", "manual"], { cwd: dir });
  });
  afterAll(async () => {
    if (serve?.child.exitCode === null) await serve.stop();
  });

  it("a new account is selectable by name at once, for both hosts, and forgotten when deleted", async () => {
    const created = await cli("accounts", "create", "--name", "Worker 1");
    expect(created.stdout).toContain('kept in .msgctl/sandbox.json: select the account with --account "Worker 1"');
    const [account] = (await json("accounts", "list")).filter((a: { name: string }) => a.name === "Worker 1");

    const numbers = await json("--account", "Worker 1", "numbers");
    expect(numbers.map((n: { handle: string }) => n.handle)).toEqual(
      account.numbers.map((n: { handle: string }) => n.handle),
    );
    expect(await json("--account", "Worker 1", "otp", "create", "--phone", "+14155550141")).toMatchObject({
      phone: "+14155550141",
    });
    // The default is still the fixture's first account.
    expect((await json("numbers")).map((n: { handle: string }) => n.handle)).not.toEqual(
      numbers.map((n: { handle: string }) => n.handle),
    );

    await json("accounts", "delete", "Worker 1");
    expect(stateAccounts()).toEqual(["Acme"]);
    const gone = await cli("--account", "Worker 1", "numbers");
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('No account named "Worker 1" in .msgctl/sandbox.json (accounts: Acme)');
    expect(gone.stderr).toContain("pass --api-key and --otp-api-key");
  });

  it("accounts created in parallel (test workers sharing one sandbox) are all kept", async () => {
    const names = ["w-a", "w-b", "w-c", "w-d"];
    const results = await Promise.all(names.map((name) => cli("accounts", "create", "--name", name, "--json")));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(stateAccounts()).toEqual(expect.arrayContaining(["Acme", ...names]));
    for (const name of names) expect((await cli("--account", name, "numbers")).code).toBe(0);
  });

  it("`reset` wipes accounts made on demand, and serve's rewritten state file forgets them", async () => {
    await json("reset");
    expect(stateAccounts()).toEqual(["Acme"]);
  });
});
