import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";
import { runCli } from "../helpers/cli.js";

/**
 * `msgctl completion bash|zsh|fish`: the script the real CLI prints, loaded by the real shell.
 * Bash runs it here (COMP_WORDS/COMP_CWORD as bash sets them on TAB); zsh and fish check its
 * syntax where they are installed.
 */

const EVENTS = [
  "message.received",
  "message.sent",
  "message.delivered",
  "message.read",
  "message.edited",
  "message.failed",
  "message.reaction",
  "conversation.typing",
  "conversation.renamed",
];

const has = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

describe("msgctl completion", () => {
  let bashScript: string;
  let scriptFile: string;

  beforeAll(async () => {
    const run = await runCli(["completion", "bash"]);
    expect(run.code, run.stderr).toBe(0);
    bashScript = run.stdout;
    scriptFile = join(mkdtempSync(join(tmpdir(), "msgctl-completion-")), "msgctl.bash");
    writeFileSync(scriptFile, bashScript);
  });

  /** What bash offers at TAB after each line (the last word is the one being completed), one bash for all. */
  function complete(...lines: string[]): string[][] {
    const cases = lines.map((line) => {
      const words = line.split(" ");
      const array = words.map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
      return `COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _msgctl; echo "@@"; printf '%s\\n' "\${COMPREPLY[@]}"`;
    });
    const run = spawnSync("bash", ["--norc", "--noprofile", "-c", `source '${scriptFile}'\n${cases.join("\n")}`], {
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    return run.stdout
      .split("@@\n")
      .slice(1)
      .map((block) => block.split("\n").filter(Boolean));
  }

  it("registers _msgctl for msgctl when bash loads it", () => {
    const run = spawnSync("bash", ["--norc", "--noprofile", "-c", `source '${scriptFile}'; complete -p msgctl`], {
      encoding: "utf8",
    });
    expect(run.stdout.trim()).toBe("complete -F _msgctl msgctl");
  });

  it("completes commands, subcommands and flags", () => {
    const [sim, webhooks, events, clock, json] = complete(
      "msgctl sim",
      "msgctl webhooks ",
      "msgctl webhooks create --ev",
      "msgctl --json cl",
      "msgctl --json --state-dir .msgctl webhooks cr",
    );
    expect(sim).toEqual(["simulate"]);
    expect(webhooks).toEqual(expect.arrayContaining(["create", "list", "deliveries", "listen", "verify"]));
    expect(events).toEqual(["--events"]);
    expect(clock).toEqual(["clock"]);
    expect(json).toEqual(["create"]);
  });

  it("completes event names: --events one after another, trigger's and wait event's argument", () => {
    const [all, second, trigger, wait, equals] = complete(
      "msgctl webhooks create --url http://localhost:3000 --events ",
      "msgctl webhooks create --events message.sent,message.d",
      "msgctl trigger message.re",
      "msgctl wait event conv",
      "msgctl webhooks tail --events = message.f",
    );
    expect(all).toEqual(EVENTS);
    expect(second).toEqual(["message.sent,message.delivered"]);
    expect(trigger).toEqual(["message.received", "message.read", "message.reaction"]);
    expect(wait).toEqual(["conversation.typing", "conversation.renamed"]);
    expect(equals).toEqual(["message.failed"]);
  });

  it("completes a flag's choices, and nothing where a value is free", () => {
    const [clock, status, port, afterValue] = complete(
      "msgctl serve --clock ",
      "msgctl wait message abc --status de",
      "msgctl serve --port ",
      "msgctl serve --port 0 --cl",
    );
    expect(clock).toEqual(["real", "manual"]);
    expect(status).toEqual(["delivered"]);
    expect(port).toEqual([]);
    expect(afterValue).toEqual(["--clock"]);
  });

  it("follows the program: every command and every flag of each is offered where it applies", () => {
    const program = createProgram("0.0.0");
    const top = program.commands.map((command) => command.name());
    const groups = program.commands.filter((command) => command.commands.length > 0);
    const results = complete(
      "msgctl ",
      ...groups.map((group) => `msgctl ${group.name()} `),
      ...program.commands.map((command) => `msgctl ${command.name()} --`),
    );
    expect(results[0]).toEqual(expect.arrayContaining(top));
    groups.forEach((group, i) => {
      expect(results[1 + i]).toEqual(expect.arrayContaining(group.commands.map((sub) => sub.name())));
    });
    program.commands.forEach((command, i) => {
      const flags = command.options.map((option) => option.long);
      expect(results[1 + groups.length + i], command.name()).toEqual(
        expect.arrayContaining([...flags, "--json", "--base-url", "--help"]),
      );
    });
  });

  it.skipIf(!has("zsh"))("zsh parses its script", async () => {
    const run = await runCli(["completion", "zsh"]);
    expect(run.stdout).toMatch(/^#compdef msgctl/);
    expect(spawnSync("zsh", ["-n"], { input: run.stdout, encoding: "utf8" }).status).toBe(0);
  });

  it.skipIf(!has("fish"))("fish parses its script", async () => {
    const run = await runCli(["completion", "fish"]);
    // From a file: fish given the script on a pipe under vitest's workers says "Unable to read input file".
    const file = join(mkdtempSync(join(tmpdir(), "msgctl-completion-")), "msgctl.fish");
    writeFileSync(file, run.stdout);
    const check = spawnSync("fish", ["--no-execute", file], { encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });

  it("refuses a shell it does not know: exit 2", async () => {
    const run = await runCli(["completion", "tcsh"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("bash, zsh, fish");
  });
});
