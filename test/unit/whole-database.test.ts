import Database from "better-sqlite3";
import { sql } from "kysely";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/store/engine/index.js";
import { insertJob, readClockState, writeClockState } from "../../src/store/core/index.js";

const folder = mkdtempSync(join(tmpdir(), "msgctl-whole-db-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(folder, `copy-${files++}.db`);

describe.each([":memory:", "file"])("the whole database at once (%s): copyTo and replaceFrom", (kind) => {
  let db: Db;
  const put = (key: string) => db.run(db.q.insertInto("meta").values({ key, value: key }));
  const keys = () => db.all(db.q.selectFrom("meta").select("key").orderBy("key")).map((row) => row.key);

  beforeEach(async () => {
    db = await openDatabase(kind === "file" ? newFile() : ":memory:");
    writeClockState(db, { mode: "manual", now_ms: 1_000, last_record_ms: 0 });
  });
  afterEach(() => db.close());

  it("replaces every table's rows by the copy's, in one go, keeping the clock's row", async () => {
    db.transaction(() => put("saved"));
    const copy = newFile();
    // The open batch is committed first: the copy holds what was written before it.
    db.copyTo(copy);
    db.transaction(() => {
      put("later");
      insertJob(db, { kind: "later", payload: null, due_at: 5, lane: null, created_at: 1 });
    });
    writeClockState(db, { mode: "manual", now_ms: 9_000, last_record_ms: 0 });
    const query = db.q.selectFrom("meta").select("key").orderBy("key");
    expect(db.all(query).map((row) => row.key)).toEqual(["later", "saved"]);

    db.replaceFrom(copy);
    expect(keys()).toEqual(["saved"]);
    expect(db.all(db.q.selectFrom("jobs").selectAll())).toEqual([]);
    expect(readClockState(db)?.now_ms).toBe(9_000);
    // A statement prepared before the restore still runs, on the new rows.
    expect(db.all(query).map((row) => row.key)).toEqual(["saved"]);
    // Ids go on from the copy's: the job made after the copy took id 1, and so does the next one.
    const id = db.transaction(() =>
      insertJob(db, { kind: "next", payload: null, due_at: 5, lane: null, created_at: 1 }),
    );
    expect(id).toBe(1);
    await db.committed();
  });

  it("leaves the database as it was when the copy does not fit its schema", async () => {
    db.transaction(() => put("kept"));
    const copy = newFile();
    db.copyTo(copy);
    const other = await openDatabase(copy);
    other.transaction(() => other.run(other.q.schema.alterTable("meta").addColumn("extra", "text")));
    other.close();
    expect(() => db.replaceFrom(copy)).toThrow("The snapshot's table meta differs from this database's");
    expect(keys()).toEqual(["kept"]);
    db.transaction(() => put("still writable"));
    expect(keys()).toEqual(["kept", "still writable"]);
  });
});

describe.each([":memory:", "file"])("restoring the content saved or restored last (%s)", (kind) => {
  let db: Db;
  const put = (key: string, value = key) => db.run(db.q.insertInto("meta").values({ key, value }));
  const rows = () =>
    db.all(db.q.selectFrom("meta").select(["key", "value"]).orderBy("key")).map((r) => `${r.key}=${r.value}`);
  const rowids = (on: Database.Database | Db) =>
    on instanceof Database
      ? on.prepare("SELECT rowid, key FROM meta ORDER BY rowid").all()
      : db.all(
          db.q
            .selectFrom("meta")
            .select([sql<number>`rowid`.as("rowid"), "key"])
            .orderBy(sql`rowid`),
        );
  /** Changes a row of the copy's file behind the key's back: a row rewritten from it shows. */
  const alterInFile = (path: string, key: string) => {
    const file = new Database(path);
    file.prepare("UPDATE meta SET value = 'from the file' WHERE key = ?").run(key);
    file.close();
  };
  const job = () => insertJob(db, { kind: "later", payload: null, due_at: 5, lane: null, created_at: 1 });

  beforeEach(async () => {
    db = await openDatabase(kind === "file" ? newFile() : ":memory:");
    writeClockState(db, { mode: "manual", now_ms: 1_000, last_record_ms: 0 });
    db.transaction(() => ["a", "b", "c"].forEach((key) => put(key)));
  });
  afterEach(() => db.close());

  it("rewrites only the rows written since, and ends as the copy is", async () => {
    const copy = newFile();
    db.copyTo(copy)("content-1");
    db.transaction(() => {
      put("d");
      db.run(db.q.updateTable("meta").set({ value: "changed" }).where("key", "=", "b"));
      db.run(db.q.deleteFrom("meta").where("key", "=", "a"));
      job();
    });
    // A write undone leaves nothing behind to put back.
    expect(() =>
      db.transaction(() => {
        put("e");
        throw new Error("undone");
      }),
    ).toThrow("undone");
    alterInFile(copy, "c");

    db.replaceFrom(copy, "content-1");
    // a, b and d are as the copy has them; c was not written since, so it is not read again.
    expect(rows()).toEqual(["a=a", "b=b", "c=c"]);
    expect(db.all(db.q.selectFrom("jobs").selectAll())).toEqual([]);
    // Still that content: the next restore of it is as quick, and as right.
    put("f");
    db.replaceFrom(copy, "content-1");
    expect(rows()).toEqual(["a=a", "b=b", "c=c"]);
    await db.committed();
  });

  it("copies everything from content it was not (another key, no key, after a wipe)", async () => {
    const copy = newFile();
    db.copyTo(copy)("content-1");
    alterInFile(copy, "c");
    db.replaceFrom(copy, "content-2");
    expect(rows()).toEqual(["a=a", "b=b", "c=from the file"]);

    const second = newFile();
    db.copyTo(second)("content-3");
    db.wipe();
    put("z");
    alterInFile(second, "a");
    db.replaceFrom(second, "content-3");
    expect(rows()).toEqual(["a=from the file", "b=b", "c=from the file"]);

    db.replaceFrom(copy);
    put("y");
    db.replaceFrom(copy);
    expect(rows()).toEqual(["a=a", "b=b", "c=from the file"]);
    await db.committed();
  });

  it("copies a table whole once more than 1,000 of its rows, and half of it, were written", async () => {
    const copy = newFile();
    db.copyTo(copy)("content-1");
    db.transaction(() => {
      for (let i = 0; i < 1_001; i++) job();
      put("d");
    });
    alterInFile(copy, "c");
    db.replaceFrom(copy, "content-1");
    expect(db.all(db.q.selectFrom("jobs").selectAll())).toEqual([]);
    expect(rows()).toEqual(["a=a", "b=b", "c=c"]);
    // Tracking goes on for the table copied whole.
    job();
    db.replaceFrom(copy, "content-1");
    expect(db.all(db.q.selectFrom("jobs").selectAll())).toEqual([]);
    await db.committed();
  });

  it("keeps the rowids of a table without an INTEGER PRIMARY KEY, gaps included, both ways", async () => {
    db.transaction(() => {
      for (let i = 0; i < 50; i++) put(`k${i}`);
      db.run(db.q.deleteFrom("meta").where("key", "in", ["k3", "k10", "k11", "a"]));
    });
    const copy = newFile();
    db.copyTo(copy)("content-1");
    const file = new Database(copy, { readonly: true });
    const saved = rowids(file);
    file.close();
    expect(rowids(db)).toEqual(saved);
    db.transaction(() => db.run(db.q.deleteFrom("meta").where("key", "like", "k1%")));
    db.replaceFrom(copy, "content-1");
    expect(rowids(db)).toEqual(saved);
    db.transaction(() => db.run(db.q.deleteFrom("meta")));
    db.replaceFrom(copy);
    expect(rowids(db)).toEqual(saved);
    await db.committed();
  });
});
