import { beforeEach, describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";

/** `msgctl accounts create|list|delete` (README.md), end to end. */
describe("msgctl accounts, end to end", () => {
  const sandbox = useServe();
  const { cli, json } = sandbox;
  const as = (key: string, ...args: string[]) =>
    runCli([...args, "--base-url", sandbox.serve.ready.base_url, "--api-key", key]);
  beforeEach(() => sandbox.reset());

  it("creates an account whose key works at once, lists it, deletes it", async () => {
    const created = await json("accounts", "create", "--name", "worker-1", "--numbers", "2");
    expect(created).toMatchObject({
      name: "worker-1",
      api_key: expect.stringMatching(/^sk_test_/),
      numbers: [{ handle: "+16285550100" }, { handle: "+16285550101" }],
    });
    const numbers = JSON.parse((await as(created.api_key, "numbers", "--json")).stdout);
    expect(numbers.map((n: { handle: string }) => n.handle)).toEqual(["+16285550100", "+16285550101"]);

    const human = await cli("accounts", "list");
    expect(human.stdout).toMatch(/worker-1\s+\(shown once\)\s+\(shown once\)\s+\+16285550100, \+16285550101/);

    expect(await json("accounts", "delete", "worker-1")).toEqual({ name: "worker-1", deleted: true });
    const gone = await as(created.api_key, "numbers");
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/unauthorized/);
  });

  it("prints the keys once for people, and refuses a bad --numbers as a usage error", async () => {
    const made = await cli("accounts", "create");
    expect(made.stdout).toMatch(/Created account account-2/);
    expect(made.stdout).toMatch(/api_key\s+sk_test_/);
    expect(made.stdout).toMatch(/shown only now/);
    const bad = await cli("accounts", "create", "--numbers", "none");
    expect(bad.code).toBe(2);
  });
});
