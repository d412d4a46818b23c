import { describe, expect, it } from "vitest";
import { otpReached } from "../../src/cli/commands/otp-wait.js";

describe("wait otp: a status is reached at it or past it (docs/otp.md)", () => {
  it.each([
    ["pending", "pending", true],
    ["pending", "verified", false],
    ["verified", "verified", true],
    ["consumed", "verified", true],
    ["consumed", "pending", true],
    ["verified", "consumed", false],
    ["pending", "expired", false],
    ["verified", "expired", false],
    ["expired", "expired", true],
    ["expired", "verified", "never"],
    ["expired", "consumed", "never"],
    ["consumed", "expired", "never"],
  ] as const)("%s for %s: %s", (current, target, verdict) => {
    expect(otpReached(current, target)).toBe(verdict);
  });
});
