/**
 * The sandbox-wide rows: the outbox of events, the scheduler's jobs, the clock, idempotency keys,
 * meta values, and the newest timestamp of each paged list.
 */
export { findEvent, insertEvent, listEventPayloadsOfType, listEventsAfter, type EventRow } from "./events.js";
export {
  deleteJob,
  DUE_BATCH,
  FIRST_JOB,
  insertJob,
  lastJobId,
  listDueFreeJobs,
  listDueLanedJobs,
  listJobs,
  listJobsAfter,
  listLaneJobs,
  listPendingLanes,
  listUnfinishedJobs,
  listUnfinishedJobsDueBy,
  markJobFailed,
  markJobRunning,
  nextDueAt,
  nextFreeDueAt,
  requeueRunningJobs,
  type JobCursor,
  type JobRow,
} from "./jobs.js";
export { readClockState, saveClockNow, writeClockState } from "./clock.js";
export { findIdempotentResource, saveIdempotencyKey } from "./idempotency.js";
export { readMeta, writeMeta } from "./meta.js";
export { latestCreatedAt, type PagedList } from "./list-times.js";
export type { CoreTables } from "./tables.js";
