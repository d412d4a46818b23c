import { sql, type Kysely } from "kysely";

/**
 * Indexes for the scheduler's hot queries (bench/HISTORY.md). Jobs without a lane and jobs with
 * one are read apart (free jobs in due order, laned ones in due order, each lane's head), so a
 * lane with a thousand first attempts waiting never makes the other reads scan them. They
 * replace jobs_due: every job is written three times (scheduled, claimed, removed), and each
 * index costs each write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("jobs_due").execute();
  await db.schema
    .createIndex("jobs_free_due")
    .on("jobs")
    .columns(["status", "due_at", "id"])
    .where(sql.ref("lane"), "is", null)
    .execute();
  await db.schema
    .createIndex("jobs_laned_due")
    .on("jobs")
    .columns(["status", "due_at", "id"])
    .where(sql.ref("lane"), "is not", null)
    .execute();
  await db.schema
    .createIndex("jobs_lane_head")
    .on("jobs")
    .columns(["lane", "status", "due_at", "id"])
    .where(sql.ref("lane"), "is not", null)
    .execute();
}
