import { sql, type Selectable } from "kysely";
import { compileOnce } from "../engine/compiled-query.js";
import type { Db } from "../engine/db.js";
import type { JobsTable } from "./tables.js";

/** A job row as read back. */
export type JobRow = Selectable<JobsTable>;

/** Where a read of laned jobs starts: after this job in due order (due time, then id). */
export type JobCursor = Pick<JobRow, "due_at" | "id">;

/** Before every job. */
export const FIRST_JOB: JobCursor = Object.freeze({ due_at: Number.MIN_SAFE_INTEGER, id: 0 });

/** A job to insert: what to run, with what, when, and in which lane. */
export interface NewJob {
  kind: string;
  payload: unknown;
  due_at: number;
  lane?: string | null;
  created_at: number;
}

// The scheduler's queries run once or twice per job: compiled once (kysely costs a lot per call),
// with their LIMIT written into the SQL: SQLite runs a statement with a bound LIMIT ten times
// slower here (about 30 µs against 3, bench/HISTORY.md).
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

const deleteJobQuery = compileOnce<[number], unknown>((q, arg) => q.deleteFrom("jobs").where("id", "=", arg(0)));

/** How many due jobs one read returns at most. */
export const DUE_BATCH = 200;

// Free jobs (no lane) in due order; the partial index jobs_free_due skips every laned job.
const dueFreeJobsQuery = compileOnce<[number], JobRow>((q, arg) =>
  q
    .selectFrom("jobs")
    .selectAll()
    .where("status", "=", "pending")
    .where("lane", "is", null)
    .where("due_at", "<=", arg(0))
    .orderBy("due_at")
    .orderBy("id")
    .limit(sql.lit(DUE_BATCH)),
);

// Due jobs of every lane in due order, after a cursor (index jobs_laned_due).
const dueLanedJobsQuery = compileOnce<[number, number, number], JobRow>((q, arg) =>
  q
    .selectFrom("jobs")
    .selectAll()
    .where("status", "=", "pending")
    .where("lane", "is not", null)
    .where("due_at", "<=", arg(0))
    .where((eb) => eb(eb.refTuple("due_at", "id"), ">", eb.tuple(arg(1), arg(2))))
    .orderBy("due_at")
    .orderBy("id")
    .limit(sql.lit(DUE_BATCH)),
);

/** How many of a lane's next jobs one read returns at most. */
const LANE_BATCH = 64;

// A lane's next jobs after a cursor, due or not (index jobs_lane_head).
const laneJobsQuery = compileOnce<[string, number, number], JobRow>((q, arg) =>
  q
    .selectFrom("jobs")
    .selectAll()
    .where("lane", "=", arg(0))
    .where("status", "=", "pending")
    .where((eb) => eb(eb.refTuple("due_at", "id"), ">", eb.tuple(arg(1), arg(2))))
    .orderBy("due_at")
    .orderBy("id")
    .limit(sql.lit(LANE_BATCH)),
);

const nextFreeDueQuery = compileOnce<[], Pick<JobRow, "due_at">>((q) =>
  q
    .selectFrom("jobs")
    .select("due_at")
    .where("status", "=", "pending")
    .where("lane", "is", null)
    .orderBy("due_at")
    .orderBy("id")
    .limit(sql.lit(1)),
);

const nextLanedDueQuery = compileOnce<[], Pick<JobRow, "due_at">>((q) =>
  q
    .selectFrom("jobs")
    .select("due_at")
    .where("status", "=", "pending")
    .where("lane", "is not", null)
    .orderBy("due_at")
    .orderBy("id")
    .limit(sql.lit(1)),
);

const markRunningQuery = compileOnce<[number], unknown>((q, arg) =>
  q
    .updateTable("jobs")
    .set((eb) => ({ status: "running", attempts: eb("attempts", "+", 1) }))
    .where("id", "=", arg(0)),
);

/** Persists a pending job; returns its id. */
export function insertJob(db: Db, job: NewJob): number {
  return db.run(
    insertJobQuery(job.kind, JSON.stringify(job.payload ?? null), job.due_at, job.lane ?? null, job.created_at),
  ).lastInsertRowid;
}

/** Pending jobs without a lane due at or before `at`, in due order (ties in scheduling order), DUE_BATCH at most. */
export function listDueFreeJobs(db: Db, at: number): JobRow[] {
  return db.all(dueFreeJobsQuery(at));
}

/**
 * Pending jobs of any lane due at or before `at` and after `after`, in due order (ties in
 * scheduling order), DUE_BATCH at most. Laned jobs are not marked running while they run: the
 * cursor is what keeps a read from returning the ones already started.
 */
export function listDueLanedJobs(db: Db, at: number, after: JobCursor = FIRST_JOB): JobRow[] {
  return db.all(dueLanedJobsQuery(at, after.due_at, after.id));
}

/** The pending jobs a lane runs after `after` (due or not), in order, LANE_BATCH at most. */
export function listLaneJobs(db: Db, lane: string, after: JobCursor = FIRST_JOB): JobRow[] {
  return db.all(laneJobsQuery(lane, after.due_at, after.id));
}

/** The lanes that have pending jobs. */
export function listPendingLanes(db: Db): string[] {
  const rows = db.all(
    db.q.selectFrom("jobs").select("lane").distinct().where("status", "=", "pending").where("lane", "is not", null),
  );
  return rows.map((row) => row.lane as string);
}

/** The earliest due time among pending jobs without a lane, or undefined. */
export function nextFreeDueAt(db: Db): number | undefined {
  return db.first(nextFreeDueQuery())?.due_at;
}

/**
 * The earliest due time among pending jobs, or undefined (each half read through its own index).
 * First attempts in flight are not marked running and count as pending: call it when none is in flight.
 */
export function nextDueAt(db: Db): number | undefined {
  const free = nextFreeDueAt(db);
  const laned = db.first(nextLanedDueQuery())?.due_at;
  if (free === undefined) return laned;
  return laned === undefined ? free : Math.min(free, laned);
}

/**
 * Jobs not finished yet (pending or running, not failed) due at or before `at`, in due order,
 * `limit` at most: what a settle waits for. Each half read through its own index.
 */
export function listUnfinishedJobsDueBy(db: Db, at: number, limit = Number.MAX_SAFE_INTEGER): JobRow[] {
  const half = (laned: boolean) =>
    db.all(
      db.q
        .selectFrom("jobs")
        .selectAll()
        .where("status", "in", ["pending", "running"])
        .where("lane", laned ? "is not" : "is", null)
        .where("due_at", "<=", at)
        .orderBy("due_at")
        .orderBy("id")
        .limit(limit),
    );
  const free = half(false);
  if (free.length >= limit) return free;
  return [...free, ...half(true)].sort((a, b) => a.due_at - b.due_at || a.id - b.id).slice(0, limit);
}

/** The jobs among `ids` not finished yet (pending or running), in due order. */
export function listUnfinishedJobs(db: Db, ids: readonly number[]): JobRow[] {
  if (ids.length === 0) return [];
  return db.all(
    db.q
      .selectFrom("jobs")
      .selectAll()
      .where("id", "in", ids)
      .where("status", "in", ["pending", "running"])
      .orderBy("due_at")
      .orderBy("id"),
  );
}

/** The newest job's id (0 when there is none): jobs scheduled afterwards have larger ones. */
export function lastJobId(db: Db): number {
  return db.first(db.q.selectFrom("jobs").select((eb) => eb.fn.max("id").as("id")))?.id ?? 0;
}

/** The jobs scheduled after the one whose id is `id`, in scheduling order. */
export function listJobsAfter(db: Db, id: number): JobRow[] {
  return db.all(db.q.selectFrom("jobs").selectAll().where("id", ">", id).orderBy("id"));
}

/** Marks a job as running (claimed; jobs without a lane only, see listDueLanedJobs). */
export function markJobRunning(db: Db, id: number): void {
  db.run(markRunningQuery(id));
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
