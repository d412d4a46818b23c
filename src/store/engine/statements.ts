import type BetterSqlite3 from "better-sqlite3";

/** A prepared statement and, for one that returns rows, how to turn its values into a row. */
export interface Prepared {
  readonly statement: BetterSqlite3.Statement;
  /** Builds the row object of one result (a statement that returns rows), else undefined. */
  readonly toRow: ((values: unknown[]) => object) | undefined;
}

/**
 * Prepares each SQL text once. Statements that return rows run in better-sqlite3's raw mode
 * (an array of values) and their rows are built by an object literal compiled for the
 * statement's columns. better-sqlite3's own row objects get their properties one at a time, and
 * past about a dozen columns V8 turns such an object into a dictionary: a `messages` row (28
 * columns) cost 8-9 µs to read that way against 4 µs, and every later read of one of its
 * properties was slower too (bench/HISTORY.md, fourth pass).
 */
export function statementCache(raw: BetterSqlite3.Database): (sql: string) => Prepared {
  const prepared = new Map<string, Prepared>();
  return (sql) => {
    let entry = prepared.get(sql);
    if (!entry) {
      const statement = raw.prepare(sql);
      entry = statement.reader
        ? { statement: statement.raw(true), toRow: rowBuilder(statement.columns().map((column) => column.name)) }
        : { statement, toRow: undefined };
      prepared.set(sql, entry);
    }
    return entry;
  };
}

/**
 * `(values) => ({ id: values[0], status: values[1], … })` for these column names. A literal gives
 * every row of the statement one fast shape; a repeated name keeps its last value, as
 * better-sqlite3's own rows do. The names come from SQLite's description of the statement and
 * are quoted with JSON.stringify, so no column name can escape the literal; `__proto__` is a
 * computed key, which defines a property instead of setting the prototype.
 */
function rowBuilder(names: readonly string[]): (values: unknown[]) => object {
  const key = (name: string) => (name === "__proto__" ? `["__proto__"]` : JSON.stringify(name));
  const fields = names.map((name, i) => `${key(name)}: values[${i}]`).join(", ");
  return new Function("values", `return { ${fields} };`) as (values: unknown[]) => object;
}
