import { z } from "zod";
import { timestamp } from "./common.js";
import { accountView, clockView } from "./control.js";
import { SNAPSHOT_NAME } from "./names.js";

/**
 * Snapshots of the whole sandbox (docs/snapshots.md): save, restore, list, delete, export and
 * import under `/sandbox/v1/snapshots`.
 */

/** A snapshot's name. */
const snapshotName = z
  .string()
  .regex(SNAPSHOT_NAME, "must be 1 to 64 letters, digits, dots, dashes or underscores")
  .meta({ example: "checkout-ready" });

/** POST /sandbox/v1/snapshots: the name to save under (an existing snapshot of that name is replaced). */
export const saveSnapshotBody = z.strictObject({ name: snapshotName });

/** A snapshot, as listed. */
export const snapshotView = z
  .object({
    name: snapshotName,
    saved_at: timestamp.meta({ description: "wall-clock time of the save" }),
    clock: clockView.meta({ description: "the sandbox's clock when it was saved" }),
    size_bytes: z.number().int().min(0).meta({ description: "the size of its file, attachments' bytes included" }),
    format: z.number().int().min(0).meta({ description: "the snapshot file's format version" }),
    msgctl_version: z.string().meta({ description: "the msgctl that saved it" }),
    problem: z.string().nullable().meta({
      description: "why it cannot be restored (written by a newer msgctl, or not a snapshot), else null",
    }),
  })
  .meta({ id: "Snapshot" });
/** A snapshot, as listed. */
export type SnapshotView = z.output<typeof snapshotView>;

/** What a restore answers: the snapshot, the clock after it, and the accounts it brought back. */
export const restoredSnapshot = z
  .object({
    snapshot: snapshotView,
    clock: clockView.meta({ description: "the clock after the restore: the snapshot's time on a manual clock" }),
    accounts: z.array(accountView).meta({ description: "every account, with the keys this sandbox can show" }),
  })
  .meta({ id: "RestoredSnapshot" });
/** What a restore answers. */
export type RestoredSnapshot = z.output<typeof restoredSnapshot>;

/** DELETE /sandbox/v1/snapshots/:name. */
export const deletedSnapshot = z
  .object({ name: snapshotName, deleted: z.literal(true) })
  .meta({ id: "DeletedSnapshot" });
/** DELETE /sandbox/v1/snapshots/:name. */
export type DeletedSnapshot = z.output<typeof deletedSnapshot>;

/**
 * The data of a `sandbox.restored` frame of GET /sandbox/v1/activity/stream: the whole sandbox was
 * replaced by a snapshot. Not an event of the service: no webhook gets it.
 */
export const restoredNotice = z
  .object({ snapshot: snapshotName, clock: clockView })
  .meta({ id: "SandboxRestored", description: "The sandbox was restored from a snapshot; the clock as it is now" });
/** The data of a `sandbox.restored` frame. */
export type RestoredNotice = z.output<typeof restoredNotice>;
