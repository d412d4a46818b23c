import { AppError } from "../../lib/app-error.js";
import { hashKey, keyKind, sameHash } from "../../lib/key-hash.js";
import { findKeyByHash } from "../../store/accounts/index.js";
import { cacheOf, type DomainContext } from "../core/index.js";

/** The authenticated caller: every `/v1` request acts as one account and sees only its data. */
export interface Account {
  id: string;
  name: string;
  appName: string;
  otpSuspended: boolean;
}

/** Which host a key is used on. */
export type KeyKind = "messaging" | "otp";

const unauthorized = (message: string) => new AppError("unauthorized", 401, message);

/**
 * Resolves a bearer token to its account. A missing, malformed or unknown key, or a key of the
 * other host's kind, is 401 unauthorized (spec section 5). Keys are looked up by SHA-256 hash
 * and the stored hash is compared in constant time.
 */
export function authenticate(ctx: DomainContext, authorization: string | null, host: KeyKind): Account {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw unauthorized("Missing or malformed Authorization header: send `Authorization: Bearer <key>`");
  const key = match[1] as string;
  const kind = keyKind(key);
  if (kind !== host) {
    throw unauthorized(
      host === "messaging"
        ? "This host takes messaging API keys (sk_live_… or sk_test_…)"
        : "This host takes OTP API keys (otp_live_…)",
    );
  }
  const hash = hashKey(key);
  const cache = cacheOf<string, Account>(ctx, "accounts-by-key");
  const cached = cache.get(hash);
  if (cached) return cached;
  const row = findKeyByHash(ctx.db, hash);
  if (!row || !sameHash(row.key_hash, hash) || row.kind !== host) throw unauthorized("Unknown API key");
  const account: Account = { id: row.id, name: row.name, appName: row.app_name, otpSuspended: row.otp_suspended === 1 };
  cache.set(hash, account);
  return account;
}
