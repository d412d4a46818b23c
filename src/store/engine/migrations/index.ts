import { Migrator, type Kysely, type Migration } from "kysely";
import * as foundation from "./0001-foundation.js";
import * as messaging from "./0002-messaging.js";
import * as webhooks from "./0003-webhooks.js";
import * as otp from "./0004-otp.js";
import * as attachments from "./0005-attachments.js";
import * as conversations from "./0006-conversations.js";
import * as deliveryResends from "./0007-delivery-resends.js";
import * as attemptSignatures from "./0008-attempt-signatures.js";
import * as speed from "./0009-speed.js";
import * as chaos from "./0010-chaos.js";

/** Every migration, in order. Names are sorted by kysely, so keep the numeric prefixes. */
const migrations: Record<string, Migration> = {
  "0001-foundation": { up: foundation.up },
  "0002-messaging": { up: messaging.up },
  "0003-webhooks": { up: webhooks.up },
  "0004-otp": { up: otp.up },
  "0005-attachments": { up: attachments.up },
  "0006-conversations": { up: conversations.up },
  "0007-delivery-resends": { up: deliveryResends.up },
  "0008-attempt-signatures": { up: attemptSignatures.up },
  "0009-speed": { up: speed.up },
  "0010-chaos": { up: chaos.up },
};

/** The names of every migration this msgctl knows, in order (a snapshot's schema is checked against them). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

/** Brings a database up to the newest schema; throws with kysely's error when a migration fails. */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Concepts landed on their own branches: a database made while one migration existed and not an
  // earlier-numbered one still takes the missing one (each migration adds its own tables only).
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
