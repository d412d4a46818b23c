import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { COMMIT_INTERVAL_MS, LAZY_COMMIT_MS, openDatabase, type Db } from "../../src/store/engine/index.js";

describe("the store: writes nobody waits for commit together, soon", () => {
  let db: Db;
  let other: BetterSqlite3.Database;
  const countOutside = () => other.prepare("SELECT count(*) FROM meta").pluck().get() as number;
  const put = (key: string) => db.run(db.q.insertInto("meta").values({ key, value: "v" }));
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  beforeEach(async () => {
    const path = join(mkdtempSync(join(tmpdir(), "msgctl-db-")), "test.db");
    db = await openDatabase(path);
    other = new BetterSqlite3(path, { readonly: true });
  });
  afterEach(() => {
    other.close();
    db.close();
  });

  it("a transaction without listeners or waiters is committed within LAZY_COMMIT_MS, with the ones after it", async () => {
    db.transaction(() => put("a"));
    await turn();
    db.transaction(() => put("b"));
    await turn();
    expect(countOutside()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, LAZY_COMMIT_MS + 20));
    expect(countOutside()).toBe(2);
  });

  it("committed() and afterCommit commit right after the current turn, at most once every COMMIT_INTERVAL_MS", async () => {
    db.transaction(() => put("waited"));
    await db.committed();
    expect(countOutside()).toBe(1);
    const seen: number[] = [];
    db.transaction(() => {
      put("listened");
      db.afterCommit(() => seen.push(countOutside()));
    });
    // Right after a commit, the next one waits out the interval: writes of that time share it.
    await new Promise((resolve) => setTimeout(resolve, COMMIT_INTERVAL_MS + 5));
    expect(seen).toEqual([2]);
  });

  it("urgentCommitted() resolves at once over bookkeeping, and after the commit when a write has listeners", async () => {
    db.transaction(() => put("bookkeeping"));
    await db.urgentCommitted();
    expect(countOutside()).toBe(0);
    db.transaction(() => {
      put("event");
      db.afterCommit(() => {});
    });
    await db.urgentCommitted();
    expect(countOutside()).toBe(2);
  });

  it("with signals deferred (an advance), afterCommit waits for a commit someone needs instead of hurrying one", async () => {
    db.deferSignals(true);
    const seen: number[] = [];
    db.transaction(() => {
      put("event");
      db.afterCommit(() => seen.push(countOutside()));
    });
    await new Promise((resolve) => setTimeout(resolve, COMMIT_INTERVAL_MS + 5));
    expect(seen).toEqual([]);
    expect(countOutside()).toBe(0);
    // A delivery attempt waiting for its event's commit gets it at once.
    await db.urgentCommitted();
    expect(seen).toEqual([1]);

    db.transaction(() => {
      put("held");
      db.afterCommit(() => seen.push(countOutside()));
    });
    // Turned off, what it held is committed and signalled right away.
    db.deferSignals(false);
    await new Promise((resolve) => setTimeout(resolve, COMMIT_INTERVAL_MS + 5));
    expect(seen).toEqual([1, 2]);
  });
});
