import { describe, expect, it } from "vitest";
import { durationWithUnit } from "../../src/cli/flag-parsers.js";
import { refusal } from "../helpers/cli-refusal.js";

describe("a duration typed at the command line needs its unit (a bare number is only 0)", () => {
  it.each([
    [["clock", "advance", "90"], "argument 'duration'"],
    [["clock", "advance", "1.5"], "argument 'duration'"],
    [["settle", "--timeout", "30"], "'--timeout <duration>'"],
    [["wait", "event", "message.sent", "--timeout", "10"], "'--timeout <duration>'"],
    [["wait", "message", "m1", "--status", "sent", "--timeout", "10"], "'--timeout <duration>'"],
    [["wait", "otp", "c1", "--status", "verified", "--timeout", "10"], "'--timeout <duration>'"],
    [["send", "--to", "+14155550191", "--text", "hi", "--wait", "sent", "--timeout", "3"], "'--timeout <duration>'"],
  ])("msgctl %j exits 2, naming the units", async (args, names) => {
    const { said, exit } = await refusal(args);
    expect(exit).toBe(2);
    expect(said).toContain(names);
    expect(said).toContain("A duration needs a unit: ms, s, m, h or d");
  });

  it("says what the bare number would have been with a unit", async () => {
    const { said } = await refusal(["clock", "advance", "90"]);
    expect(said).toContain("(90s, 90ms, 10m, 1h30m)");
  });

  it.each(["0", "90s", "500ms", "10m", "1h30m", "2d", "1.5s"])("takes %s as typed", (value) => {
    expect(durationWithUnit(value)).toBe(value);
  });
});
