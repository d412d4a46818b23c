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
