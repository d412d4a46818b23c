import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { createMemoryBlobStore, openBlobStore, type BlobStore } from "../../src/store/attachments/index.js";

const stream = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
const SHA_HELLO_WORLD = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";

describe.each([
  ["files next to a database", () => openBlobStore(join(mkdtempSync(join(tmpdir(), "msgctl-blobs-")), "sandbox.db"))],
  ["memory", () => createMemoryBlobStore()],
] as [string, () => BlobStore][])("the blob store (%s)", (_, open) => {
  it("stages while hashing, and shows the bytes only once committed, under their SHA-256", async () => {
    const blobs = open();
    const staged = await blobs.stage(stream("hello ", "world"), 100);
    if (staged.tooLarge) throw new Error("unexpected");
    expect(staged).toMatchObject({ hash: SHA_HELLO_WORLD, size: 11 });
    expect(staged.head.toString()).toBe("hello world");
    expect(blobs.has(staged.hash)).toBe(false);
    await staged.commit();
    expect(blobs.has(staged.hash)).toBe(true);
    expect(await text(blobs.read(staged.hash))).toBe("hello world");
    expect(await text(blobs.read(staged.hash, { start: 6, end: 10 }))).toBe("world");
  });

  it("stops at the limit and keeps nothing", async () => {
    const blobs = open();
    const source = stream("12345", "67890", "x");
    expect(await blobs.stage(source, 10)).toEqual({ tooLarge: true });
    const exact = await blobs.stage(stream("12345", "67890"), 10);
    expect(exact.tooLarge).toBe(false);
  });

  it("drops discarded bytes; the same bytes twice are stored once", async () => {
    const blobs = open();
    const dropped = await blobs.stage(stream("gone"), 10);
    if (dropped.tooLarge) throw new Error("unexpected");
    await dropped.discard();
    expect(blobs.has(dropped.hash)).toBe(false);
    const a = await blobs.put(Buffer.from("same"));
    const b = await blobs.put(Buffer.from("same"));
    expect(a).toBe(b);
    await blobs.clear();
    expect(blobs.has(a)).toBe(false);
  });

  it("lends a local file of a blob (sharp, ffmpeg and music-metadata read files)", async () => {
    const blobs = open();
    const hash = await blobs.put(Buffer.from("on disk"));
    const { readFile } = await import("node:fs/promises");
    expect(await blobs.withLocalFile(hash, (path) => readFile(path, "utf8"))).toBe("on disk");
  });
});

describe("the file blob store", () => {
  it("leaves no temporary files behind after a commit, a discard or a refusal", async () => {
    const root = mkdtempSync(join(tmpdir(), "msgctl-blobs-"));
    const blobs = openBlobStore(join(root, "sandbox.db"));
    const kept = await blobs.stage(stream("keep"), 10);
    const dropped = await blobs.stage(stream("drop"), 10);
    await blobs.stage(stream("far too long"), 4);
    if (kept.tooLarge || dropped.tooLarge) throw new Error("unexpected");
    await kept.commit();
    await dropped.discard();
    expect(readdirSync(join(root, "sandbox.db.blobs", "tmp"))).toEqual([]);
    expect(readdirSync(join(root, "sandbox.db.blobs", kept.hash.slice(0, 2)))).toEqual([kept.hash]);
  });
});

describe("the memory blob store", () => {
  it("leaves nothing in the temporary folder once a lent file and a scratch file are done with", async () => {
    const temp = mkdtempSync(join(tmpdir(), "msgctl-tmpdir-"));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp; // os.tmpdir() reads it on every call
    try {
      const blobs = createMemoryBlobStore();
      const hash = await blobs.put(Buffer.from("lent"));
      await blobs.withLocalFile(hash, async (path) => expect(path.startsWith(temp)).toBe(true));
      const scratch = blobs.scratchPath(".mp4");
      writeFileSync(scratch, "ffmpeg's output");
      await blobs.importFile(scratch);
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      process.env.TMPDIR = before;
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
