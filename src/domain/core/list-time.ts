import { latestCreatedAt, type PagedList } from "../../store/core/index.js";
import { cacheOf, type DomainContext } from "./context.js";

export type { PagedList };

/**
 * The `created_at` of a new record of an account's paged list: the clock's now, unless the account's previous record of that list already took
 * this millisecond, then the next one. So a `before` cursor never skips or repeats, and nothing
 * runs ahead of the clock but by what one list needs. Every other timestamp is the clock's now.
 * The newest value of each list is found again on first use, so a restart never reuses one.
 */
export function nextListTime(ctx: DomainContext, list: PagedList, accountId: string): number {
  const latest = cacheOf<string, number>(ctx, "list-times");
  const key = `${list}:${accountId}`;
  let last = latest.get(key);
  if (last === undefined) last = latestCreatedAt(ctx.db, list, accountId) ?? Number.NEGATIVE_INFINITY;
  const next = Math.max(ctx.clock.now(), last + 1);
  latest.set(key, next);
  return next;
}
