import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/store/engine/index.js";

describe("the store: transactions with group commit", () => {
  let db: Db;
  let path: string;
  let other: BetterSqlite3.Database;
  const countOutside = () => other.prepare("SELECT count(*) FROM meta").pluck().get() as number;
  const put = (key: string) => db.run(db.q.insertInto("meta").values({ key, value: "v" }));

  beforeEach(async () => {
    path = join(mkdtempSync(join(tmpdir(), "msgctl-db-")), "test.db");
    db = await openDatabase(path);
    other = new BetterSqlite3(path, { readonly: true });
  });
  afterEach(() => {
    other.close();
    db.close();
  });

  it("commits transactions of one event-loop turn together, before committed() resolves", async () => {
    db.transaction(() => put("a"));
    db.transaction(() => put("b"));
    // Same connection: visible at once. Another connection: not before the commit.
    expect(db.all(db.q.selectFrom("meta").select("key"))).toHaveLength(2);
    expect(countOutside()).toBe(0);
    await db.committed();
    expect(countOutside()).toBe(2);
  });

  it("undoes only the writes of a transaction that throws", async () => {
    db.transaction(() => put("kept"));
    expect(() =>
      db.transaction(() => {
        put("undone");
        throw new Error("rule broken");
      }),
    ).toThrow("rule broken");
    await db.committed();
    expect(other.prepare("SELECT key FROM meta").pluck().all()).toEqual(["kept"]);
  });

  it("runs afterCommit callbacks once the batch is committed", async () => {
    const seen: number[] = [];
    db.transaction(() => {
      put("x");
      db.afterCommit(() => seen.push(countOutside()));
    });
    expect(seen).toEqual([]);
    await db.committed();
    expect(seen).toEqual([1]);
  });

  it("drops the afterCommit callbacks of a transaction that throws: no signal for writes undone", async () => {
    const seen: string[] = [];
    db.transaction(() => {
      put("kept");
      db.afterCommit(() => seen.push("kept"));
      expect(() =>
        db.transaction(() => {
          put("undone");
          // An event emitted, then a rule broken: its signal must not reach live listeners.
          db.afterCommit(() => seen.push("undone"));
          throw new Error("rule broken");
        }),
      ).toThrow("rule broken");
      db.afterCommit(() => seen.push("after"));
    });
    await db.committed();
    expect(seen).toEqual(["kept", "after"]);
  });

  it("rejects committed() when SQLite rolled the batch back, so nothing lost is acknowledged", async () => {
    db.transaction(() => put("lost"));
    const waiting = db.committed();
    // What a fatal error (a full disk) does: SQLite ends the transaction on its own.
    db.run({
      compile: () => ({ sql: "ROLLBACK", parameters: [], query: undefined as never, queryId: undefined as never }),
    });
    await expect(waiting).rejects.toThrow(/rolled back/);
    expect(countOutside()).toBe(0);
  });

  it("resolves committed() at once when nothing is pending", async () => {
    await expect(db.committed()).resolves.toBeUndefined();
  });

  it("commits what is pending when closed", () => {
    db.transaction(() => put("late"));
    db.close();
    expect(countOutside()).toBe(1);
  });

  it("wipes every table but the migrations", async () => {
    db.transaction(() => put("x"));
    db.wipe();
    await db.committed();
    expect(countOutside()).toBe(0);
  });
});
