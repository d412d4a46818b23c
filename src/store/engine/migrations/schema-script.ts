import BetterSqlite3 from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { migrateToLatest } from "./index.js";

// What every migration leaves in a new database, as one SQL script: its tables, indexes and
// triggers in the order they were made, and the rows the migrations write (kysely's record of
// them included). The builds run the migrations once and embed the script (scripts/build.mjs);
// a new database then takes it in one exec instead of the migrations' statements, each built
// through kysely's schema builder: most of what opening a `:memory:` database cost at start-up.

/** A value as an SQL literal. */
function literal(value: unknown): string {
  if (value === null) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Buffer.isBuffer(value)) return `X'${value.toString("hex")}'`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** The schema and rows of a database as SQL statements that rebuild them in an empty one. */
function schemaScript(raw: BetterSqlite3.Database): string {
  const objects = raw
    .prepare(
      "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid",
    )
    .all() as { type: string; name: string; sql: string }[];
  const statements = objects.map((object) => `${object.sql};`);
  for (const { name } of objects.filter((object) => object.type === "table")) {
    for (const row of raw.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][])
      statements.push(`INSERT INTO "${name}" VALUES (${row.map(literal).join(", ")});`);
  }
  return statements.join("\n");
}

/** The script of a database every migration was applied to (run at build time). */
export async function migratedSchemaScript(): Promise<string> {
  const raw = new BetterSqlite3(":memory:");
  try {
    await migrateToLatest(new Kysely({ dialect: new SqliteDialect({ database: raw }) }));
    return schemaScript(raw);
  } finally {
    raw.close();
  }
}

/** Whether a database holds nothing yet (a new file or `:memory:`). */
export function isEmptyDatabase(raw: BetterSqlite3.Database): boolean {
  return raw.prepare("SELECT count(*) FROM sqlite_master").pluck().get() === 0;
}

/**
 * Makes an empty database what the migrations would, in one transaction: the script, then
 * kysely's record of each migration stamped now, as the migrations would have stamped it.
 */
export function applySchemaScript(raw: BetterSqlite3.Database, script: string): void {
  raw.transaction(() => {
    raw.exec(script);
    raw.prepare("UPDATE kysely_migration SET timestamp = ?").run(new Date().toISOString());
  })();
}
