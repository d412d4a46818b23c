import { describe, expect, it } from "vitest";
import { action } from "../../src/cli/action.js";
import type { Output } from "../../src/cli/output.js";
import { createProgram } from "../../src/cli/program.js";

describe("action(): how a registrar's command reaches its function", () => {
  it("loads the module only when the command runs, then passes the fixed value, the arguments, the merged flags and the output", async () => {
    const calls: unknown[][] = [];
    let loads = 0;
    const module = {
      member(
        what: "add" | "remove",
        id: string,
        handle: string,
        options: { from: string; json?: boolean },
        out: Output,
      ) {
        calls.push([what, id, handle, options.from, options.json, typeof out.result]);
      },
    };
    const load = async () => {
      loads++;
      return module;
    };
    const program = createProgram("0.0.0");
    program
      .command("probe <id> <handle>")
      .requiredOption("--from <handle>", "who")
      .action(action(load, "member", "add"));
    expect(loads).toBe(0);
    await program.parseAsync(["node", "msgctl", "--json", "probe", "c1", "+14155550100", "--from", "+14155550101"]);
    expect(loads).toBe(1);
    expect(calls).toEqual([["add", "c1", "+14155550100", "+14155550101", true, "function"]]);
  });
});
