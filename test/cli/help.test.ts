import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.js";

describe("a command's --help", () => {
  it("lists the global options it takes too (serve --help showed neither --json nor --state-dir)", () => {
    const serve = createProgram("0.0.0").commands.find((command) => command.name() === "serve");
    const help = serve?.helpInformation() ?? "";
    expect(help).toContain("Global Options:");
    for (const flag of ["--json", "--state-dir <dir>", "--base-url <url>"]) expect(help).toContain(flag);
  });
});

describe("MSGCTL_STATE_DIR", () => {
  it("names the state directory when --state-dir is not given (commander's default hid it)", async () => {
    const program = createProgram("0.0.0");
    const seen: string[] = [];
    program.command("probe").action((_options, command) => void seen.push(command.optsWithGlobals().stateDir));
    const previous = process.env.MSGCTL_STATE_DIR;
    process.env.MSGCTL_STATE_DIR = "/tmp/elsewhere";
    try {
      await program.parseAsync(["node", "msgctl", "probe"]);
      await program.parseAsync(["node", "msgctl", "--state-dir", "/tmp/flag", "probe"]);
    } finally {
      if (previous === undefined) delete process.env.MSGCTL_STATE_DIR;
      else process.env.MSGCTL_STATE_DIR = previous;
    }
    expect(seen).toEqual(["/tmp/elsewhere", "/tmp/flag"]);
  });
});
