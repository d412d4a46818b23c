import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import {
  applySchemaScript,
  isEmptyDatabase,
  MIGRATION_NAMES,
  migratedSchemaScript,
  migrateToLatest,
} from "../../src/store/engine/index.js";

// The builds embed what the migrations leave in a new database as one script, and a new database
// takes it in one exec: it must be the very database the migrations make, which kysely then
// finds up to date.

const migrated = async () => {
  const raw = new BetterSqlite3(":memory:");
  await migrateToLatest(new Kysely({ dialect: new SqliteDialect({ database: raw }) }));
  return raw;
};

/** Every object of the schema, as SQLite records it, and every row but kysely's timestamps. */
function contents(raw: BetterSqlite3.Database) {
  const objects = raw.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all() as {
    type: string;
    name: string;
  }[];
  const rows = Object.fromEntries(
    objects
      .filter((object) => object.type === "table" && object.name !== "kysely_migration")
      .map((object) => [object.name, raw.prepare(`SELECT * FROM "${object.name}"`).all()]),
  );
  const migrations = raw.prepare("SELECT name FROM kysely_migration ORDER BY name").pluck().all();
  return { objects, rows, migrations };
}

describe("a new database from the built schema script", () => {
  it("is the database the migrations make: the same tables, indexes and rows, every migration recorded", async () => {
    const script = await migratedSchemaScript();
    const fromScript = new BetterSqlite3(":memory:");
    expect(isEmptyDatabase(fromScript)).toBe(true);
    applySchemaScript(fromScript, script);
    expect(isEmptyDatabase(fromScript)).toBe(false);
    const expected = contents(await migrated());
    expect(expected.objects.length).toBeGreaterThan(30);
    expect(contents(fromScript)).toEqual(expected);
    expect(contents(fromScript).migrations).toEqual([...MIGRATION_NAMES].sort());
  });

  it("is up to date for kysely (it runs no migration on it) and stamps the migrations now", async () => {
    const fromScript = new BetterSqlite3(":memory:");
    const before = Date.now();
    applySchemaScript(fromScript, await migratedSchemaScript());
    const stamps = fromScript.prepare("SELECT timestamp FROM kysely_migration").pluck().all() as string[];
    for (const stamp of stamps) expect(Date.parse(stamp)).toBeGreaterThanOrEqual(before - 1);
    const schema = () => fromScript.prepare("SELECT sql FROM sqlite_master ORDER BY rowid").pluck().all();
    const made = schema();
    await migrateToLatest(new Kysely({ dialect: new SqliteDialect({ database: fromScript }) }));
    expect(schema()).toEqual(made);
    expect(fromScript.prepare("SELECT timestamp FROM kysely_migration").pluck().all()).toEqual(stamps);
  });
});
