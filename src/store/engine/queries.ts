import type BetterSqlite3 from "better-sqlite3";
import type { Compilable } from "kysely";
import { BoundQuery } from "./compiled-query.js";
import type { Db } from "./db.js";
import { statementCache } from "./statements.js";

/**
 * `Db.all`, `first` and `run`: each query's SQL prepared once (statements.ts), a query compiled
 * once (compiled-query.ts) run by its SQL with no compile step per call. `wrote` is told of a
 * write that committed on its own (outside any batch).
 */
export function queryRunner(raw: BetterSqlite3.Database, wrote: () => void): Pick<Db, "all" | "first" | "run"> {
  const prepare = statementCache(raw);
  // better-sqlite3 binds no booleans; SQLite stores them as 0/1 anyway.
  const params = (values: readonly unknown[]) => {
    for (const value of values) {
      if (typeof value === "boolean") return values.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v));
    }
    return values;
  };
  const compiled = (query: Compilable<unknown>): { sql: string; parameters: readonly unknown[] } =>
    query instanceof BoundQuery ? query : query.compile();

  return {
    all<R>(query: Compilable<R>) {
      const { sql, parameters } = compiled(query);
      const { statement, toRow } = prepare(sql);
      const rows = statement.all(...params(parameters)) as unknown[][];
      return (toRow ? rows.map((values) => toRow(values)) : rows) as R[];
    },
    first<R>(query: Compilable<R>) {
      const { sql, parameters } = compiled(query);
      const { statement, toRow } = prepare(sql);
      const values = statement.get(...params(parameters)) as unknown[] | undefined;
      return (values === undefined || !toRow ? values : toRow(values)) as R | undefined;
    },
    run(query) {
      const { sql, parameters } = compiled(query);
      const result = prepare(sql).statement.run(...params(parameters));
      if (!raw.inTransaction && result.changes > 0) wrote();
      return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
    },
  };
}
