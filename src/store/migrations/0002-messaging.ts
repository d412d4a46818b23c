import type { Kysely } from "kysely";

/** Messages, conversations, per-number faults: filled in by the messages issue. */
export async function up(_db: Kysely<unknown>): Promise<void> {}
