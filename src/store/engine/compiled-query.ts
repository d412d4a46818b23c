import { Kysely, SqliteDialect, type Compilable, type CompiledQuery } from "kysely";
import type { Database } from "./schema.js";

// Compiling needs a dialect but never a connection: this instance only turns builders into SQL.
const compiler = new Kysely<Database>({
  dialect: new SqliteDialect({
    database: async () => {
      throw new Error("compile-only Kysely instance");
    },
  }),
});

const MARK = "\u0000msgctl-arg:";

/** A placeholder for argument `i` of a compiled query; typed loosely so it fits any column. */
export type Arg = (index: number) => any;

/**
 * A compiled query with its arguments bound. `Db` runs it by its SQL directly: no spread of the
 * compiled node and no closure per call (on the scheduler's hot path that was a tenth of an
 * advance, bench/HISTORY.md).
 */
export class BoundQuery<R> implements Compilable<R> {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  readonly #base: CompiledQuery<R>;

  constructor(base: CompiledQuery<R>, parameters: readonly unknown[]) {
    this.#base = base;
    this.sql = base.sql;
    this.parameters = parameters;
  }

  compile(): CompiledQuery<R> {
    return { ...this.#base, parameters: this.parameters };
  }
}

/**
 * Builds a query once and returns a function that binds new arguments to the same SQL. Hot paths
 * (the send endpoint, the jobs of the message lifecycle) skip kysely's per-call builder and
 * compiler this way (TOOLCHAIN.md: kysely costs 25-30% there). Only plain values can be
 * arguments: list lengths are fixed at build time.
 */
export function compileOnce<A extends unknown[], R>(
  build: (q: Kysely<Database>, arg: Arg) => Compilable<R>,
): (...args: A) => BoundQuery<R> {
  let compiled: { base: CompiledQuery<R>; slots: (number | { value: unknown })[]; inOrder: boolean } | undefined;
  const prepare = () => {
    const base = build(compiler, (index) => `${MARK}${index}`).compile();
    const slots = base.parameters.map((value) =>
      typeof value === "string" && value.startsWith(MARK) ? Number(value.slice(MARK.length)) : { value },
    );
    // Most queries bind their arguments once each, in order: the arguments are the parameters.
    return { base, slots, inOrder: slots.every((slot, i) => slot === i) };
  };
  return (...args) => {
    compiled ??= prepare();
    const { base, slots, inOrder } = compiled;
    const parameters =
      inOrder && args.length === slots.length
        ? args
        : slots.map((slot) => (typeof slot === "number" ? args[slot] : slot.value));
    return new BoundQuery(base, parameters);
  };
}

/**
 * Every column of a table, in a fixed order, for an insert compiled once: the type refuses a list
 * that leaves one out, so a column added to the table cannot be silently skipped.
 */
export const allColumns =
  <T>() =>
  <const C extends readonly (keyof T)[]>(
    columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, C[number]> }),
  ): C =>
    columns;
