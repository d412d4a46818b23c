import { describe, expect, it } from "vitest";
import { createContext } from "../../src/domain/core/index.js";
import { setContactProfile } from "../../src/domain/world/index.js";
import { defaultSettings } from "../../src/domain/core/index.js";
import { cryptoIds } from "../../src/lib/ids.js";
import { manualClock, openClock } from "../../src/scheduler/clock.js";
import { openDatabase } from "../../src/store/database.js";

describe("record timestamps (SANDBOX.md section 5)", () => {
  it("are unique and increasing: a record that would share a millisecond takes the next one", async () => {
    const db = await openDatabase(":memory:");
    const clock = openClock(db, "manual", 1_000_000);
    const ctx = createContext({ db, clock, ids: cryptoIds(), settings: defaultSettings, resolveHost: async () => [] });
    const times = Array.from({ length: 5 }, () => ctx.recordTime());
    expect(times).toEqual([1_000_000, 1_000_001, 1_000_002, 1_000_003, 1_000_004]);
    clock.set(2_000_000);
    expect(ctx.recordTime()).toBe(2_000_000);
    db.close();
  });

  it("stay increasing across a restart of the same database", async () => {
    const db = await openDatabase(":memory:");
    const first = createContext({ db, clock: openClock(db, "manual", 5_000), ids: cryptoIds(), settings: defaultSettings, resolveHost: async () => [] });
    setContactProfile(first, "+14155550191", {});
    setContactProfile(first, "+14155550192", {});
    const again = createContext({ db, clock: manualClock(db, 5_000), ids: cryptoIds(), settings: defaultSettings, resolveHost: async () => [] });
    expect(again.recordTime()).toBe(5_002);
    db.close();
  });
});
