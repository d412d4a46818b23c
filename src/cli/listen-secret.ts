import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cryptoIds } from "../lib/ids.js";

/** Where `webhooks listen` keeps its signing secret in a state directory. */
export const listenSecretPath = (stateDir: string) => join(stateDir, "listen-secret");

/** The secret listen signs with, and where it is kept (undefined when it could not be). */
export interface ListenSecret {
  secret: string;
  keptIn: string | undefined;
  /** Why it could not be kept: it will change at the next run. */
  problem?: string;
}

/**
 * The signing secret of `webhooks listen` in a state directory: the one kept there by an earlier
 * run, else a new `whsec_…` written there (owner-only), so the app that holds it (a `.env` written
 * once) keeps verifying across restarts of listen, as Stripe CLI's device secret does.
 */
export function listenSecret(stateDir: string): ListenSecret {
  const path = listenSecretPath(stateDir);
  try {
    const kept = readFileSync(path, "utf8").trim();
    if (kept.length >= 16) return { secret: kept, keptIn: path };
  } catch {
    // None kept yet: make one below.
  }
  const secret = `whsec_${cryptoIds().token(32)}`;
  try {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(path, `${secret}\n`, { mode: 0o600 });
    return { secret, keptIn: path };
  } catch (error) {
    return { secret, keptIn: undefined, problem: (error as Error).message };
  }
}
