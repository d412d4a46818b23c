import { sql, type Selectable, type Updateable } from "kysely";
import type { Db } from "../engine/db.js";
import type { OtpChallengesTable } from "./tables.js";

/** A challenge row as read back. */
export type ChallengeRow = Selectable<OtpChallengesTable>;

/** Inserts a challenge. */
export function insertChallenge(db: Db, row: OtpChallengesTable): void {
  db.run(db.q.insertInto("otp_challenges").values(row));
}

/** A challenge by id, whichever account owns it (jobs, texts). */
export function findChallenge(db: Db, id: string): ChallengeRow | undefined {
  return db.first(db.q.selectFrom("otp_challenges").selectAll().where("id", "=", id));
}

/** The account's challenge with this id. */
export function findAccountChallenge(db: Db, accountId: string, id: string): ChallengeRow | undefined {
  return db.first(
    db.q.selectFrom("otp_challenges").selectAll().where("id", "=", id).where("account_id", "=", accountId),
  );
}

/** Applies changes to a challenge. */
export function updateChallenge(db: Db, id: string, changes: Updateable<OtpChallengesTable>): void {
  db.run(db.q.updateTable("otp_challenges").set(changes).where("id", "=", id));
}

/** Every challenge for a phone, of any account, newest first. */
export function listPhoneChallenges(db: Db, phone: string): ChallengeRow[] {
  return db.all(
    db.q
      .selectFrom("otp_challenges")
      .selectAll()
      .where("phone", "=", phone)
      .orderBy("created_at", "desc")
      .orderBy("id"),
  );
}

/** The codes of a phone's challenges that may still be verified or consumed (not past expires_at). */
export function liveCodesOfPhone(db: Db, phone: string, now: number): string[] {
  return db
    .all(
      db.q
        .selectFrom("otp_challenges")
        .select("code")
        .where("phone", "=", phone)
        .where("expires_at", ">", now)
        .where("status", "in", ["pending", "verified"]),
    )
    .map((row) => row.code);
}

/** Who a rate limit counts: one account, one phone, or one phone within one account. */
export interface ChallengeScope {
  accountId?: string;
  phone?: string;
}

/** The creation times of the scope's challenges made after `since`, oldest first. */
export function challengeTimesSince(db: Db, scope: ChallengeScope, since: number): number[] {
  let query = db.q.selectFrom("otp_challenges").select("created_at").where("created_at", ">", since);
  if (scope.accountId !== undefined) query = query.where("account_id", "=", scope.accountId);
  if (scope.phone !== undefined) query = query.where("phone", "=", scope.phone);
  return db.all(query.orderBy("created_at")).map((row) => row.created_at);
}

/** The account's challenges, newest first (ties in one millisecond by insertion order). */
export function listAccountChallenges(db: Db, accountId: string, limit: number): ChallengeRow[] {
  return db.all(
    db.q
      .selectFrom("otp_challenges")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("created_at", "desc")
      .orderBy(sql`rowid`, "desc")
      .limit(limit),
  );
}
