import { describe, expect, it } from "vitest";
import { isoTime, parseIsoTime } from "../../src/lib/clock.js";
import { openClock } from "../../src/scheduler/clock.js";
import { openDatabase } from "../../src/store/engine/index.js";

describe("the clock (docs/sandbox.md)", () => {
  it("manual: stands still until set, and never moves backwards", async () => {
    const db = await openDatabase(":memory:");
    const clock = openClock(db, "manual", 1_700_000_000_000);
    expect(clock.now()).toBe(1_700_000_000_000);
    expect(clock.now()).toBe(1_700_000_000_000);
    clock.set(1_700_000_060_000);
    clock.set(1_600_000_000_000);
    expect(clock.now()).toBe(1_700_000_060_000);
    db.close();
  });

  it("manual: resumes where it stood when the database is opened again", async () => {
    const db = await openDatabase(":memory:");
    const clock = openClock(db, "manual", 1_000);
    clock.set(90_000);
    clock.save();
    expect(openClock(db, "manual", 5_000_000).now()).toBe(90_000);
    db.close();
  });

  it("manual after a real-clock run starts at the wall clock", async () => {
    const db = await openDatabase(":memory:");
    openClock(db, "real", 1_000);
    expect(openClock(db, "manual", 2_000_000).now()).toBe(2_000_000);
    db.close();
  });

  it("real after a manual clock advanced past the wall: goes on from where it stood, in real time (never backwards)", async () => {
    const db = await openDatabase(":memory:");
    const wall = Date.now();
    const manual = openClock(db, "manual", wall);
    manual.set(wall + 2 * 86_400_000);
    manual.save();
    const real = openClock(db, "real", Date.now());
    expect(real.mode).toBe("real");
    expect(Math.abs(real.now() - (wall + 2 * 86_400_000))).toBeLessThan(1_000);
    // Stopped (stop saves it) and opened manual again: it resumes from the real clock's time.
    // Read before the save: the save stamps its own later instant, and a read after it could be 1 ms past that.
    const stood = real.now();
    real.save();
    expect(openClock(db, "manual", Date.now()).now()).toBeGreaterThanOrEqual(stood);
    db.close();
  });

  it("real: follows the wall clock", async () => {
    const db = await openDatabase(":memory:");
    const clock = openClock(db, "real", 0);
    expect(Math.abs(clock.now() - Date.now())).toBeLessThan(1_000);
    db.close();
  });

  it("formats ISO 8601 with milliseconds in UTC", () => {
    expect(isoTime(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe("2026-01-02T03:04:05.006Z");
    expect(parseIsoTime("2026-01-02T03:04:05.006Z")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    expect(parseIsoTime("yesterday")).toBeUndefined();
    expect(parseIsoTime("2026-13-45T99:00:00Z")).toBeUndefined();
  });

  it("refuses a timestamp with a field out of range instead of rolling it over", () => {
    for (const value of [
      "2026-02-30T00:00:00.000Z",
      "2026-04-31T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "2026-01-01T00:60:00Z",
      "2026-01-01T00:00:60Z",
      "2026-00-10T00:00:00Z",
      "2026-01-00T00:00:00Z",
      "2026-01-01T00:00:00+24:00",
    ]) {
      expect(parseIsoTime(value), value).toBeUndefined();
    }
    expect(parseIsoTime("2028-02-29T23:59:59.999Z")).toBe(Date.UTC(2028, 1, 29, 23, 59, 59, 999));
    expect(parseIsoTime("2026-01-01T05:00:00.000+05:00")).toBe(Date.UTC(2026, 0, 1));
  });

  it("writes every timestamp exactly as toISOString does", () => {
    const cases = [
      0,
      1,
      999,
      1_000,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    // Spread over 1970-9999 by a fixed sequence (Park-Miller), so that a failure repeats.
    let seed = 20_261_126;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 48_271) % 2_147_483_647;
      cases.push(Math.floor((seed / 2_147_483_647) * 253_402_300_000_000) + (i % 1_000));
    }
    for (const ms of cases) expect(isoTime(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it("gives the same answer for the same instant twice in a row, and for times outside 1970-9999", () => {
    const ms = Date.UTC(2026, 10, 26, 10, 0, 0, 5);
    expect(isoTime(ms)).toBe("2026-11-26T10:00:00.005Z");
    expect(isoTime(ms)).toBe("2026-11-26T10:00:00.005Z");
    expect(isoTime(-1)).toBe("1969-12-31T23:59:59.999Z");
    expect(isoTime(253_402_300_800_000)).toBe("+010000-01-01T00:00:00.000Z");
    expect(isoTime(1.7)).toBe("1970-01-01T00:00:00.001Z");
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
