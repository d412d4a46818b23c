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
