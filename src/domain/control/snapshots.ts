import type { Readable } from "node:stream";
import type { AccountView } from "../../contract/control.js";
import { SNAPSHOT_NAME } from "../../contract/names.js";
import type { DeletedSnapshot, RestoredSnapshot, SnapshotView } from "../../contract/snapshots.js";
import { AppError, invalidRequest, notFound } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { isoTime } from "../../lib/clock.js";
import { listBlobHashes } from "../../store/attachments/index.js";
import {
  SnapshotFileProblem,
  type ExportedSnapshot,
  type OpenedSnapshot,
  type SnapshotInfo,
  type SnapshotKeys,
  type SnapshotStore,
} from "../../store/control/index.js";
import { resetCaches, type DomainContext } from "../core/index.js";
import type { JobRunner } from "./clock-and-reset.js";

/** Snapshots of the whole sandbox (docs/snapshots.md), behind /sandbox/v1/snapshots. */
export interface SnapshotControls {
  /** Every snapshot, by name. */
  list(): SnapshotView[];
  /** One snapshot; 404 not_found for an unknown name. */
  get(name: string): SnapshotView;
  /** Saves the whole sandbox under `name` (replacing a snapshot of that name once complete). */
  save(name: unknown): Promise<SnapshotView>;
  /** Replaces the whole sandbox by the snapshot of this name. */
  restore(name: string): Promise<RestoredSnapshot>;
  /** Replaces the whole sandbox by an exported snapshot file (`serve --restore FILE`). */
  restoreFile(path: string): Promise<RestoredSnapshot>;
  delete(name: string): Promise<DeletedSnapshot>;
  /** The snapshot as one file. */
  export(name: string): ExportedSnapshot;
  /** Keeps an exported snapshot (a file, or its bytes as they arrive) under `name`. */
  import(name: string, source: string | Readable): Promise<SnapshotView>;
}

/** What the snapshot controls act on. */
export interface SnapshotControlOptions {
  ctx: DomainContext;
  jobs: JobRunner;
  store: SnapshotStore;
  /** This msgctl's version, recorded in each snapshot. */
  version: string;
  /** The accounts with the keys this sandbox can show (recorded, so that a restore elsewhere can show them). */
  accounts(): AccountView[];
  /** Told after a restore, with the keys the snapshot carried. */
  restored(keys: readonly SnapshotKeys[]): void;
}

/** The most an imported snapshot may weigh: 2 GiB (its attachments' bytes included). */
export const MAX_SNAPSHOT_BYTES = 2 * 1024 ** 3;

/** The name, checked: 1 to 64 letters, digits, dots, dashes and underscores; else 400 invalid_request. */
export function snapshotNameOf(input: unknown, field = "name"): string {
  if (typeof input === "string" && SNAPSHOT_NAME.test(input)) return input;
  const given =
    typeof input === "string" ? JSON.stringify(clip(input, 80)) : input === undefined ? "nothing" : typeof input;
  throw invalidRequest(`${field}: must be 1 to 64 letters, digits, dots, dashes or underscores (got ${given})`);
}

/** A snapshot as the contract shows it. */
function snapshotView(info: SnapshotInfo): SnapshotView {
  return {
    name: info.name,
    saved_at: isoTime(info.savedAt),
    clock: { now: isoTime(info.clockMs), mode: info.clockMode },
    size_bytes: info.sizeBytes,
    format: info.format,
    msgctl_version: info.msgctlVersion,
    problem: info.problem ?? null,
  };
}

const unknownSnapshot = (name: string) => notFound(`Snapshot ${name}`);

/** A file that cannot be restored or kept: 400 (413 for its size), naming it and saying why. */
function refused(label: string, error: unknown): unknown {
  if (!(error instanceof SnapshotFileProblem)) return error;
  const message = `${label} ${error.message}`;
  return error.tooLarge ? new AppError("payload_too_large", 413, message) : invalidRequest(message);
}

/** The snapshot controls of one sandbox. */
export function createSnapshotControls(options: SnapshotControlOptions): SnapshotControls {
  const { ctx, jobs, store } = options;

  /** Replaces the whole state by an opened snapshot, then tells everyone who listens. */
  const restoreOpened = async (opened: OpenedSnapshot, label: string): Promise<RestoredSnapshot> => {
    try {
      await jobs.replaceState(async () => {
        // The bytes first: a restore that fails after them leaves only unused blobs behind.
        const blobs = opened.blobs();
        try {
          for (const hash of blobs.hashes) if (!ctx.blobs.has(hash)) await ctx.blobs.put(blobs.read(hash));
        } finally {
          blobs.close();
        }
        ctx.db.replaceFrom(opened.path, opened.info.contentKey);
        resetCaches(ctx);
        // The bytes of attachments made after the save go with their rows.
        await ctx.blobs.prune(new Set(listBlobHashes(ctx.db)));
        return opened.info.clockMs;
      });
    } catch (error) {
      throw refused(label, error);
    } finally {
      await opened.release();
    }
    options.restored(opened.info.keys);
    ctx.bus.publish("restored", { snapshot: opened.info.name });
    ctx.bus.publish("changed", null);
    return {
      snapshot: snapshotView(opened.info),
      clock: { now: isoTime(ctx.clock.now()), mode: ctx.clock.mode },
      accounts: options.accounts(),
    };
  };

  const open = async (name: string, label: string): Promise<OpenedSnapshot> => {
    const opened = await store.open(name).catch((error: unknown) => {
      throw refused(label, error);
    });
    if (!opened) throw unknownSnapshot(name);
    return opened;
  };

  return {
    list: () => store.list().map(snapshotView),
    get(name) {
      const info = store.get(snapshotNameOf(name));
      if (!info) throw unknownSnapshot(name);
      return snapshotView(info);
    },
    async save(input) {
      const name = snapshotNameOf(input);
      // Between jobs: attempts on the wire finish first, so none is half in the snapshot.
      let named: ((key: string) => void) | undefined;
      const info = await jobs
        .exclusively(() =>
          store.save(name, {
            copyDatabase: (path) => {
              named = ctx.db.copyTo(path);
            },
            meta: {
              name,
              msgctlVersion: options.version,
              savedAt: ctx.wallNow(),
              clockMs: ctx.clock.now(),
              clockMode: ctx.clock.mode,
              keys: options.accounts().map(({ name, api_key, otp_api_key }) => ({ name, api_key, otp_api_key })),
            },
            blobs: { hashes: listBlobHashes(ctx.db), read: (hash) => ctx.blobs.bytes(hash) },
          }),
        )
        .catch((error: unknown) => {
          throw new AppError(
            "internal_error",
            500,
            `Snapshot ${name} could not be saved (${error instanceof Error ? error.message : String(error)}); an earlier snapshot of that name is kept`,
          );
        });
      // The database is that snapshot's content but for what was written since the copy.
      if (info.contentKey) named?.(info.contentKey);
      return snapshotView(info);
    },
    async restore(input) {
      const name = snapshotNameOf(input);
      return restoreOpened(await open(name, `Snapshot ${name}`), `Snapshot ${name}`);
    },
    async restoreFile(path) {
      const opened = await store.openFile(path).catch((error: unknown) => {
        throw refused(path, error);
      });
      return restoreOpened(opened, path);
    },
    async delete(input) {
      const name = snapshotNameOf(input);
      if (!(await store.delete(name))) throw unknownSnapshot(name);
      return { name, deleted: true };
    },
    export(input) {
      const name = snapshotNameOf(input);
      const exported = store.export(name);
      if (!exported) throw unknownSnapshot(name);
      return exported;
    },
    async import(input, source) {
      const name = snapshotNameOf(input);
      try {
        return snapshotView(await store.import(source, name, MAX_SNAPSHOT_BYTES));
      } catch (error) {
        throw refused(typeof source === "string" ? source : "The uploaded file", error);
      }
    },
  };
}
