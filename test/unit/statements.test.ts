import { setFlagsFromString } from "node:v8";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { openDatabase, type Db } from "../../src/store/engine/index.js";

// V8's own test of an object's representation: fast properties, or a dictionary.
setFlagsFromString("--allow-natives-syntax");
const hasFastProperties = new Function("object", "return %HasFastProperties(object)") as (object: object) => boolean;

describe("the store's rows: one fast shape per statement", () => {
  let db: Db;
  beforeEach(async () => {
    db = await openDatabase(":memory:");
  });
  afterEach(() => db.close());
  const select = (text: string) => ({ compile: () => sql.raw<Record<string, unknown>>(text).compile(db.q) });

  it("gives a 28-column messages row fast properties (better-sqlite3's own row is a dictionary)", () => {
    db.run(
      select(`INSERT INTO messages (id, account_id, conversation_id, direction, status, number_handle, remote_handle, backoff_ms, created_at, updated_at)
      VALUES ('m1', 'a1', 'c1', 'outbound', 'queued', '+14155550101', '+14155552000', 30000, 1, 2)`),
    );
    const [row] = db.all(db.q.selectFrom("messages").selectAll());
    expect(Object.keys(row ?? {})).toHaveLength(28);
    expect(row).toMatchObject({
      id: "m1",
      status: "queued",
      channel: null,
      backoff_ms: 30000,
      attempts: 0,
      created_at: 1,
    });
    expect(hasFastProperties(row as object)).toBe(true);
  });

  it("names the columns in their order, a repeated name keeping its last value, as better-sqlite3 does", () => {
    const row = db.first(select(`SELECT 1 AS b, 'x' AS a, 2 AS b`));
    expect(row).toEqual({ b: 2, a: "x" });
    expect(Object.keys(row ?? {})).toEqual(["b", "a"]);
  });

  it("takes any column name as a plain property: quotes, backslashes, __proto__", () => {
    const row = db.first(select(`SELECT 1 AS "a""b\\c", 2 AS "__proto__", 3 AS "x y"`)) as Record<string, unknown>;
    expect(row['a"b\\c']).toBe(1);
    expect(Object.getOwnPropertyDescriptor(row, "__proto__")?.value).toBe(2);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(row["x y"]).toBe(3);
  });

  it("returns undefined and [] when nothing matches, and runs writes that return nothing", () => {
    expect(db.run(db.q.insertInto("meta").values({ key: "k", value: "v" })).changes).toBe(1);
    expect(db.first(db.q.selectFrom("meta").selectAll().where("key", "=", "none"))).toBeUndefined();
    expect(db.all(db.q.selectFrom("meta").selectAll().where("key", "=", "none"))).toEqual([]);
    expect(db.all(db.q.selectFrom("meta").selectAll().where("key", "=", "k"))).toEqual([{ key: "k", value: "v" }]);
  });

  it("builds rows for a write that returns some (RETURNING)", () => {
    const row = db.first(db.q.insertInto("meta").values({ key: "r", value: "w" }).returning(["value", "key"]));
    expect(row).toEqual({ value: "w", key: "r" });
  });
});
