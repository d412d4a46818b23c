import { Migrator, type Kysely, type Migration } from "kysely";
import * as foundation from "./0001-foundation.js";
import * as messaging from "./0002-messaging.js";
import * as webhooks from "./0003-webhooks.js";
import * as conversations from "./0006-conversations.js";

/** Every migration, in order. Names are sorted by kysely, so keep the numeric prefixes. */
const migrations: Record<string, Migration> = {
  "0001-foundation": foundation,
  "0002-messaging": messaging,
  "0003-webhooks": webhooks,
  "0006-conversations": conversations,
};

/** Brings a database up to the newest schema; throws with kysely's error when a migration fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
