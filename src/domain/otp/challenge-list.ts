import { listOtpChallengesQuery, type OtpChallengeView } from "../../contract/otp.js";
import { parseInput } from "../../lib/validation.js";
import { listAccountChallenges } from "../../store/otp/index.js";
import type { DomainContext } from "../core/index.js";
import { toChallenge } from "./challenges.js";

/**
 * The account's challenges, newest first, with their codes and wrong texts (GET
 * /sandbox/v1/otp/challenges): what the inspector shows beside the buttons that text them.
 */
export function listChallenges(
  ctx: DomainContext,
  accountId: string,
  query: Record<string, string>,
): { data: OtpChallengeView[]; hasMore: boolean } {
  const { limit } = parseInput(listOtpChallengesQuery, { limit: query.limit }, "query");
  const now = ctx.clock.now();
  const rows = listAccountChallenges(ctx.db, accountId, limit + 1);
  const data = rows
    .slice(0, limit)
    .map((row) => ({ ...toChallenge(row, now), code: row.code, wrong_texts: row.wrong_texts }));
  return { data, hasMore: rows.length > limit };
}
