import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";

/**
 * Under --json every failure is one JSON object on stdout and nothing else there
 * (docs/sandbox.md), and nothing the CLI prints is a stack trace.
 */

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |msgctl crashed/);

describe("--json failures: one object on stdout", () => {
  const { cli } = useServe();

  it("an API refusal: { error, message, request_id, status }, exit 1", async () => {
    const result = await cli("messages", "get", "msg_nope", "--json");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      error: "not_found",
      message: expect.any(String),
      request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
      status: 404,
    });
  });

  it("a usage error: { error: usage, message }, exit 2", async () => {
    const result = await cli("clock", "advance", "soon", "--json");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({ error: "usage", message: expect.stringContaining('"soon"') });
  });

  it("commander's own errors too (it printed them on stderr itself): an unknown option, an unknown command, a missing argument", async () => {
    for (const args of [["numbers", "--nope"], ["no-such-command"], ["messages", "get"], []]) {
      const result = await runCli([...args, "--json"]);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toBe("");
      const failure = JSON.parse(result.stdout);
      expect(failure).toEqual({ error: "usage", message: expect.any(String) });
      expect(failure.message).not.toMatch(/^error:/);
    }
  });

  it("an unreachable sandbox: { error: unreachable, message }, exit 1", async () => {
    const result = await runCli(["numbers", "--json", "--base-url", "http://127.0.0.1:9", "--api-key", "sk_test_x"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      error: "unreachable",
      message: expect.stringContaining("Cannot reach the sandbox at http://127.0.0.1:9"),
    });
  });

  it("no sandbox at all: { error: no_sandbox, message }, exit 1", async () => {
    const empty = mkdtempSync(join(tmpdir(), "msgctl-none-"));
    const result = await runCli(["numbers", "--json"], { cwd: empty });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: "no_sandbox" });
  });
});

describe("files a command writes: folders made, or exit 2 naming the path", () => {
  it("init -o into a missing folder makes it (it crashed with a stack trace)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-init-"));
    const result = await runCli(["init", "--yes", "-o", "ci/fixture.json"], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    noStack(result.stderr);
    expect(JSON.parse(readFileSync(join(dir, "ci/fixture.json"), "utf8")).accounts).toHaveLength(1);
  });

  it("init -o where a folder would have to be a file: exit 2 naming the path, as JSON under --json", async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-init-"));
    writeFileSync(join(dir, "ci"), "a file, not a folder");
    const human = await runCli(["init", "--yes", "-o", "ci/fixture.json"], { cwd: dir });
    expect(human.code).toBe(2);
    expect(human.stderr).toMatch(
      /^error -o ci\/fixture\.json: cannot write there \(a part of the path is (a file|not a directory)\)\n$/,
    );
    const json = await runCli(["init", "--yes", "-o", "ci/fixture.json", "--json"], { cwd: dir });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({ error: "usage", message: expect.stringContaining("-o ci/fixture.json") });
    expect(json.stderr).toBe("");
  });
});
