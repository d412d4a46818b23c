import type { Selectable } from "kysely";
import { compileOnce } from "./compiled-query.js";
import type { Db } from "./database.js";
import type { JobsTable } from "./schema.js";

/** A job row as read back. */
export type JobRow = Selectable<JobsTable>;

/** A job to insert: what to run, with what, when, and in which lane. */
export interface NewJob {
  kind: string;
  payload: unknown;
  due_at: number;
  lane?: string | null;
  created_at: number;
}

// The scheduler's queries run once or twice per job: compiled once (kysely costs a lot per call).
const insertJobQuery = compileOnce((q, arg) =>
  q.insertInto("jobs").values({
    kind: arg(0),
    payload: arg(1),
    due_at: arg(2),
    lane: arg(3),
    status: "pending",
    attempts: 0,
    last_error: null,
    created_at: arg(4),
  }),
);

const dueJobsQuery = compileOnce<[number, number], JobRow>((q, arg) =>
  q
    .selectFrom("jobs")
    .selectAll()
    .where("status", "=", "pending")
    .where("due_at", "<=", arg(0))
    .orderBy("due_at")
    .orderBy("id")
    .limit(arg(1)),
);

const deleteJobQuery = compileOnce<[number], unknown>((q, arg) => q.deleteFrom("jobs").where("id", "=", arg(0)));

/** Persists a pending job; returns its id. */
export function insertJob(db: Db, job: NewJob): number {
  return db.run(insertJobQuery(job.kind, JSON.stringify(job.payload ?? null), job.due_at, job.lane ?? null, job.created_at)).lastInsertRowid;
}

/** Pending jobs due at or before `at`, in due order (ties in scheduling order). */
export function listDueJobs(db: Db, at: number, limit: number): JobRow[] {
  return db.all(dueJobsQuery(at, limit));
}

/** The earliest due time among pending jobs, or undefined. */
export function nextDueAt(db: Db): number | undefined {
  const row = db.first(
    db.q.selectFrom("jobs").select("due_at").where("status", "=", "pending").orderBy("due_at").orderBy("id").limit(1),
  );
  return row?.due_at;
}

/** Marks a job as running (claimed). */
export function markJobRunning(db: Db, id: number): void {
  db.run(db.q.updateTable("jobs").set((eb) => ({ status: "running", attempts: eb("attempts", "+", 1) })).where("id", "=", id));
}

/** Removes a finished job. */
export function deleteJob(db: Db, id: number): void {
  db.run(deleteJobQuery(id));
}

/** Records a job that threw: kept with its error, not run again. */
export function markJobFailed(db: Db, id: number, error: string): void {
  db.run(db.q.updateTable("jobs").set({ status: "failed", last_error: error }).where("id", "=", id));
}

/** After a restart, jobs that were running when the process died are pending again. */
export function requeueRunningJobs(db: Db): number {
  return db.run(db.q.updateTable("jobs").set({ status: "pending" }).where("status", "=", "running")).changes;
}

/** Jobs by status, for inspection and tests. */
export function listJobs(db: Db, status?: JobsTable["status"]): JobRow[] {
  let query = db.q.selectFrom("jobs").selectAll();
  if (status) query = query.where("status", "=", status);
  return db.all(query.orderBy("due_at").orderBy("id"));
}
