import BetterSqlite3 from "better-sqlite3";

/** Statements run while counting, in all and by SQL text (first 80 characters). */
export interface StatementCount {
  total: number;
  bySql: Map<string, number>;
}

type Method = (this: BetterSqlite3.Statement, ...args: unknown[]) => unknown;

/**
 * Counts every statement better-sqlite3 runs in this process while `fn` runs (prepared ones:
 * run, get, all, iterate; and exec), by wrapping the Statement prototype: a figure of the
 * statements an operation costs that the machine's load does not move.
 */
export async function countStatements(fn: () => Promise<unknown>): Promise<StatementCount> {
  const probe = new BetterSqlite3(":memory:");
  const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, Method>;
  const databaseProto = Object.getPrototypeOf(probe) as Record<string, Method>;
  probe.close();
  const count: StatementCount = { total: 0, bySql: new Map() };
  const note = (sql: string) => {
    count.total++;
    const key = sql.replace(/\s+/g, " ").slice(0, 80);
    count.bySql.set(key, (count.bySql.get(key) ?? 0) + 1);
  };
  const originals: [Record<string, Method>, string, Method][] = [];
  for (const name of ["run", "get", "all", "iterate"]) {
    const original = statementProto[name] as Method;
    originals.push([statementProto, name, original]);
    statementProto[name] = function (this: BetterSqlite3.Statement, ...args: unknown[]) {
      note(this.source);
      return original.apply(this, args);
    };
  }
  const exec = databaseProto.exec as Method;
  originals.push([databaseProto, "exec", exec]);
  databaseProto.exec = function (this: BetterSqlite3.Statement, ...args: unknown[]) {
    note(String(args[0]));
    return exec.apply(this, args);
  };
  try {
    await fn();
  } finally {
    for (const [proto, name, original] of originals) proto[name] = original;
  }
  return count;
}
