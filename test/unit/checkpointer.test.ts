import { closeSync, existsSync, mkdtempSync, openSync, readSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase, type Db } from "../../src/store/engine/index.js";

/**
 * Once a database has seen some writes, its WAL is checkpointed by a worker thread, so that no
 * COMMIT on the event loop copies pages and syncs files (store/engine/checkpointer.ts).
 */
describe("the store: checkpoints off the event loop", () => {
  let db: Db | undefined;
  afterEach(() => {
    db?.close();
    db = undefined;
  });

  const open = async (options: Parameters<typeof openDatabase>[1] = {}) => {
    const path = join(mkdtempSync(join(tmpdir(), "msgctl-ckpt-")), "test.db");
    db = await openDatabase(path, options);
    return path;
  };
  /** `count` commits of one small write each (a page or two: far from SQLite's 1,000-page checkpoint). */
  const commits = async (count: number, from = 0) => {
    for (let i = from; i < from + count; i++) {
      db!.transaction(() => db!.run(db!.q.insertInto("meta").values({ key: `k${i}`, value: "v".repeat(1_000) })));
      await db!.committed();
    }
  };
  /** One commit of about `pages` pages. */
  const bigCommit = async (pages: number, tag: string) => {
    db!.transaction(() => {
      for (let i = 0; i < pages; i++)
        db!.run(db!.q.insertInto("meta").values({ key: `${tag}${i}`, value: "v".repeat(3_500) }));
    });
    await db!.committed();
  };
  /**
   * Frames in the WAL and frames copied to the database file, read from the WAL-index header
   * (https://sqlite.org/walformat.html: mxFrame at byte 16, nBackfill at byte 96) without a
   * connection, which would checkpoint on its own.
   */
  const wal = (path: string) => {
    const header = Buffer.alloc(100);
    const fd = openSync(`${path}-shm`, "r");
    readSync(fd, header, 0, 100, 0);
    closeSync(fd);
    return { frames: header.readUInt32LE(16), copied: header.readUInt32LE(96) };
  };
  /** The WAL right after a commit past SQLite's own checkpoint threshold (1,000 pages). */
  const walAfterBigCommit = async (path: string) => {
    await bigCommit(1_200, "big");
    return wal(path);
  };

  it("leaves a database that writes little to SQLite's own checkpoint: no thread, nothing copied yet", async () => {
    const path = await open();
    await commits(63);
    expect(db!.walCheckpoints).toBe("in-commit");
    expect(wal(path).frames).toBeGreaterThan(0);
    expect(wal(path).copied).toBe(0);
  });

  it("starts the worker at the 64th commit", async () => {
    await open();
    await commits(64);
    expect(db!.walCheckpoints).toBe("worker");
  });

  it("copies the WAL to the database file in the worker, with no checkpoint in a COMMIT", async () => {
    const path = await open();
    await commits(100);
    // Far fewer frames than SQLite's own checkpoint waits for: only the worker copies them.
    expect(wal(path).frames).toBeLessThan(1_000);
    await vi.waitFor(
      () => {
        const { frames, copied } = wal(path);
        expect(copied).toBeGreaterThan(0);
        expect(copied).toBe(frames);
      },
      { timeout: 10_000, interval: 20 },
    );
    // A COMMIT past SQLite's 1,000 pages no longer copies them itself (the worker does, later).
    const { frames, copied } = await walAfterBigCommit(path);
    expect(frames).toBeGreaterThan(1_000);
    expect(copied).toBeLessThan(frames);
  });

  it("starts the WAL over under a steady load once it passes 8,192 frames (32 MiB)", async () => {
    const path = await open();
    await commits(64);
    // Writes back to back: no commit ever finds the WAL fully copied, so SQLite never starts it over.
    let highest = 0;
    let restarted = false;
    for (let i = 0; !restarted && highest < 30_000; i++) {
      await bigCommit(10, `steady${i}-`);
      const { frames } = wal(path);
      restarted = frames < highest;
      highest = Math.max(highest, frames);
    }
    expect(restarted).toBe(true);
    expect(highest).toBeGreaterThanOrEqual(8_192);
  }, 60_000);

  it("falls back to SQLite's own checkpoint when the worker cannot load SQLite", async () => {
    const path = await open({ workerSqlite: () => ({ require: "/nowhere/better-sqlite3" }) });
    await commits(64);
    await vi.waitFor(() => expect(db!.walCheckpoints).toBe("in-commit"), { timeout: 10_000, interval: 20 });
    // SQLite's checkpoint is on again: a COMMIT past 1,000 pages copies the WAL itself.
    const { frames, copied } = await walAfterBigCommit(path);
    expect(copied).toBeGreaterThan(1_000);
    expect(copied).toBe(frames);
  });

  it("closes with every write in the database file and no WAL left, once the worker is stopped", async () => {
    const path = await open();
    await commits(80);
    // The worker is likely copying these when the close comes: the close waits for it.
    await bigCommit(1_200, "last");
    db!.close();
    db = undefined;
    // Truncated by the last checkpoint, or removed by SQLite with the last connection.
    expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0);
    const reopened = new BetterSqlite3(path, { readonly: true });
    expect(reopened.prepare("SELECT count(*) FROM meta").pluck().get()).toBe(80 + 1_200);
    reopened.close();
  });
});
