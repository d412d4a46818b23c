import { describe, expect, it } from "vitest";
import { refusal } from "../helpers/cli-refusal.js";

describe("an enumerated flag or argument refuses a value outside its list: exit 2, naming it and the values", () => {
  it.each([
    [["serve", "--clock", "sometimes"], "'--clock <mode>'", "real, manual"],
    [["env", "--shell", "zsh"], "'--shell <shell>'", "bash, fish, powershell"],
    [["openapi", "--host", "foo"], "'--host <host>'", "messaging, otp"],
    [["contacts", "set", "+14155550100", "--platform", "win"], "'--platform <platform>'", "ios, android"],
    [["wait", "otp", "c1", "--status", "done"], "'--status <status>'", "pending, verified, consumed, expired"],
    [
      ["simulate", "fault", "+14155550101", "melted"],
      "argument 'fault'",
      "offline, online, transient, rate-limited, relink-required",
    ],
    [["simulate", "otp-fault", "down"], "argument 'fault'", "unavailable"],
  ])("msgctl %j", async (args, names, values) => {
    const { said, exit } = await refusal(args);
    expect(exit).toBe(2);
    expect(said).toContain(names);
    expect(said).toContain(`Allowed choices are ${values}.`);
  });
});
