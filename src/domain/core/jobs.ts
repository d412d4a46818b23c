import { insertJob, type JobRow } from "../../store/core/index.js";
import type { DomainContext } from "./context.js";

/** What a job handler knows about the run it is part of. */
export interface JobRun {
  id: number;
  dueAt: number;
  /** Aborted when the sandbox stops or resets mid-run: the handler should stop without writing. */
  signal: AbortSignal;
}

/**
 * What an async job may hand back when it is done: writes that complete it. The scheduler runs
 * them in one transaction with the removal of the job, batched with the other jobs that finish
 * around the same time (webhook attempts record themselves this way).
 */
export type JobCompletion = () => void;

/**
 * Runs one job. A synchronous handler runs inside the scheduler's transaction, together with the
 * removal of the job; an async one (a webhook HTTP attempt) writes in its own transactions, or
 * hands its last writes back as a `JobCompletion`.
 */
export type JobHandler = (ctx: DomainContext, payload: any, run: JobRun) => void | Promise<void | JobCompletion>;

/** A job a settle still waits for; `inFlight` when it is running now (an HTTP attempt on the wire). */
export interface UnfinishedJob {
  job: JobRow;
  inFlight: boolean;
}

/** What a settle of the scheduler came to (docs/control-api.md, "Settle"). */
export interface SettleOutcome {
  /** Everything it waited for finished (false: the time ran out first, or the scheduler stopped). */
  settled: boolean;
  /** The scheduler stopped before it settled. */
  stopped: boolean;
  /** The clock's time when it was called: it waited for the jobs due at or before it. */
  now: number;
  /** The jobs it waited for: those not finished when it was called, and those they scheduled due at once. */
  jobsRun: number;
  /** Of those, the laned ones: first delivery attempts. */
  firstAttempts: number;
  /** When not settled: the jobs still unfinished, those in flight first, then in due order. */
  unfinished: UnfinishedJob[];
}

/** Persists a job due at `dueAt` (virtual time); call inside the transaction that needs it. */
export function scheduleJob(ctx: DomainContext, kind: string, payload: unknown, dueAt: number, lane?: string): number {
  const id = insertJob(ctx.db, { kind, payload, due_at: dueAt, lane: lane ?? null, created_at: ctx.clock.now() });
  ctx.db.afterCommit(() => ctx.bus.publish("job", { dueAt, lane: lane ?? null }));
  return id;
}
