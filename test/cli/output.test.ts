import { describe, expect, it } from "vitest";
import { createOutput, table, wantsColor } from "../../src/cli/output.js";

function capture(json: boolean, color = false) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = createOutput({ json, color, stdout: (t) => stdout.push(t), stderr: (t) => stderr.push(t) });
  return { out, stdout, stderr };
}

describe("CLI output (README.md)", () => {
  describe("colour follows NO_COLOR and TTY detection", () => {
    it.each([
      [{ isTTY: true }, {}, true],
      [{ isTTY: false }, {}, false],
      [{}, {}, false],
      [{ isTTY: true }, { NO_COLOR: "1" }, false],
      [{ isTTY: true }, { NO_COLOR: "" }, true],
      [{ isTTY: false }, { FORCE_COLOR: "1" }, true],
      [{ isTTY: true }, { NO_COLOR: "1", FORCE_COLOR: "1" }, false],
    ])("stream %j with env %j → %s", (stream, env, expected) => {
      expect(wantsColor(stream, env as NodeJS.ProcessEnv)).toBe(expected);
    });

    it("writes no escape codes with colour off", () => {
      const { out, stdout } = capture(false, false);
      out.line(out.color.red("plain"));
      expect(stdout.join("")).toBe("plain\n");
    });
  });

  it("--json prints the resource as one JSON document on stdout and nothing else", () => {
    const { out, stdout, stderr } = capture(true);
    out.result({ now: "x", mode: "manual" }, () => "human text");
    expect(JSON.parse(stdout.join(""))).toEqual({ now: "x", mode: "manual" });
    expect(stderr).toEqual([]);
  });

  it("without --json prints the human rendering", () => {
    const { out, stdout } = capture(false);
    out.result({ a: 1 }, () => ["line 1", "line 2"]);
    expect(stdout.join("")).toBe("line 1\nline 2\n");
  });

  it("aligns table columns, ignoring colour codes", () => {
    const { out } = capture(false, true);
    const lines = table(
      out.color,
      ["A", "BB"],
      [
        [out.color.green("x"), "1"],
        ["long", "2"],
      ],
    );
    const plain = lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ""));
    expect(plain).toEqual(["A     BB", "x     1", "long  2"]);
  });
});
