import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

// Nothing listens here: a command that got past its flags fails to connect (exit 1), so exit 2
// shows the flags were refused before any request.
const NOWHERE = ["--base-url", "http://127.0.0.1:9", "--api-key", "sk_test_x"];
const set = (...flags: string[]) => runCli(["contacts", "set", "+14155550191", ...flags, ...NOWHERE]);

describe("msgctl contacts set: a flag and its opposite together are a usage error (exit 2)", () => {
  it.each([
    ["--imessage", "--no-imessage"],
    ["--no-imessage", "--imessage"],
    ["--whatsapp", "--no-whatsapp"],
    ["--read-receipts", "--no-read-receipts"],
    ["--reachable", "--unreachable"],
    ["--unreachable", "--reachable"],
  ])("%s with %s names both flags instead of taking the last", async (first, second) => {
    const result = await set(first, second);
    expect(result.code, result.stderr).toBe(2);
    // Commander names a declared conflict in declaration order, a negation in the order given.
    expect(result.stderr).toMatch(/^error: option '--[\w-]+' cannot be used with option '--[\w-]+'$/m);
    expect(result.stderr).toContain(`'${first}'`);
    expect(result.stderr).toContain(`'${second}'`);
    expect(result.stdout).toBe("");
  });

  it("still takes each flag alone, a flag given twice, and flags of different traits together", async () => {
    for (const flags of [
      ["--no-imessage"],
      ["--imessage", "--imessage"],
      ["--imessage", "--no-whatsapp", "--unreachable", "--platform", "android"],
    ]) {
      const result = await set(...flags);
      expect(result.stderr, flags.join(" ")).toContain("Cannot reach the sandbox");
      expect(result.code, result.stderr).toBe(1);
    }
  });
});
