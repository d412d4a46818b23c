import Database from "better-sqlite3";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { KEY, useSandbox, type TestSandbox } from "../helpers/sandbox.js";

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

const folder = mkdtempSync(join(tmpdir(), "msgctl-snapshots-api-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function send(t: TestSandbox, text: string) {
  const res = await t.api("POST", "/v1/messages", { body: { from_handle: NUMBER, to: CONTACT, text } });
  expect(res.status).toBe(202);
  return res.body.data as { id: string };
}

const texts = async (t: TestSandbox) =>
  ((await t.api("GET", "/v1/messages")).body.data as { text: string }[]).map((m) => m.text);

/** GET …/export: the bytes of the file (binary, so not through the JSON helper). */
async function exported(t: TestSandbox, name: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await t.sandbox.messagingApp.request(`/sandbox/v1/snapshots/${name}/export`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** An exported snapshot changed as a file from elsewhere would be: `change` runs on its database. */
function altered(bytes: Buffer, change: (db: Database.Database) => void): Buffer {
  const path = join(folder, `altered-${Math.random().toString(36).slice(2)}.db`);
  writeFileSync(path, bytes);
  const db = new Database(path);
  change(db);
  db.close();
  return readFileSync(path);
}

const putSnapshot = (t: TestSandbox, name: string, bytes: Uint8Array) =>
  t.api("PUT", `/sandbox/v1/snapshots/${name}`, {
    body: bytes,
    headers: { "content-type": "application/octet-stream" },
  });

describe.each([
  ["a :memory: sandbox", {}],
  ["a database file", { db: join(folder, "api.db") }],
])("snapshots over the control API, %s", (_, options) => {
  const t = useSandbox(options);
  beforeEach(async () => {
    for (const { name } of (await t.api("GET", "/sandbox/v1/snapshots")).body.data as { name: string }[]) {
      await t.api("DELETE", `/sandbox/v1/snapshots/${name}`);
    }
    await t.sandbox.control.reset();
  });

  it("POST saves (201), GET lists and gets, restore brings the state back, DELETE removes", async () => {
    await send(t, "before");
    const saved = await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "seeded.v1_x-y" } });
    expect(saved.status).toBe(201);
    expect(saved.body.data).toMatchObject({
      name: "seeded.v1_x-y",
      clock: { now: new Date(t.sandbox.ctx.clock.now()).toISOString(), mode: "manual" },
      format: 1,
      problem: null,
    });
    expect(saved.body.data.size_bytes).toBeGreaterThan(0);
    const listed = await t.api("GET", "/sandbox/v1/snapshots");
    expect(listed.body).toMatchObject({ data: [saved.body.data], has_more: false });
    expect((await t.api("GET", "/sandbox/v1/snapshots/seeded.v1_x-y")).body.data).toEqual(saved.body.data);

    await send(t, "after");
    expect(await texts(t)).toEqual(["after", "before"]);
    const restored = await t.api("POST", "/sandbox/v1/snapshots/seeded.v1_x-y/restore");
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({
      snapshot: saved.body.data,
      clock: saved.body.data.clock,
      accounts: [{ name: "Acme", api_key: KEY }],
    });
    expect(await texts(t)).toEqual(["before"]);

    const deleted = await t.api("DELETE", "/sandbox/v1/snapshots/seeded.v1_x-y");
    expect(deleted).toMatchObject({ status: 200, body: { data: { name: "seeded.v1_x-y", deleted: true } } });
    expect((await t.api("GET", "/sandbox/v1/snapshots")).body.data).toEqual([]);
  });

  it("saving under an existing name replaces that snapshot", async () => {
    await send(t, "first");
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "same" } });
    await send(t, "second");
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "same" } });
    await send(t, "third");
    await t.api("POST", "/sandbox/v1/snapshots/same/restore");
    expect(await texts(t)).toEqual(["second", "first"]);
    expect((await t.api("GET", "/sandbox/v1/snapshots")).body.data).toHaveLength(1);
  });

  it("an unknown name is 404 not_found on get, restore, delete and export, and changes nothing", async () => {
    await send(t, "kept");
    for (const [method, path] of [
      ["GET", "/sandbox/v1/snapshots/nope"],
      ["POST", "/sandbox/v1/snapshots/nope/restore"],
      ["DELETE", "/sandbox/v1/snapshots/nope"],
      ["GET", "/sandbox/v1/snapshots/nope/export"],
    ] as const) {
      const res = await t.api(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", message: "Snapshot nope not found" });
    }
    expect(await texts(t)).toEqual(["kept"]);
  });

  it("a name outside [A-Za-z0-9._-]{1,64} is 400 invalid_request, in the body and in the path", async () => {
    for (const name of ["", "a b", "a/b", "é", "x".repeat(65), 42, null]) {
      const res = await t.api("POST", "/sandbox/v1/snapshots", { body: { name } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/^name: /) });
    }
    expect((await t.api("POST", "/sandbox/v1/snapshots", { body: {} })).body.message).toBe("name: required");
    expect((await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "x".repeat(64) } })).status).toBe(201);
    for (const [method, path] of [
      ["GET", "/sandbox/v1/snapshots/a%20b"],
      ["POST", `/sandbox/v1/snapshots/${"x".repeat(65)}/restore`],
      ["DELETE", "/sandbox/v1/snapshots/a%2Fb"],
      ["GET", "/sandbox/v1/snapshots/%C3%A9/export"],
      ["PUT", "/sandbox/v1/snapshots/a%20b"],
    ] as const) {
      const res = await t.api(method, path, method === "PUT" ? { body: "x" } : {});
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body).toMatchObject({
        error: "invalid_request",
        message: expect.stringContaining("name: must be 1 to 64 letters, digits, dots, dashes or underscores"),
      });
    }
    expect((await t.api("GET", "/sandbox/v1/snapshots")).body.data.map((s: { name: string }) => s.name)).toEqual([
      "x".repeat(64),
    ]);
  });

  it("export is one file that PUT imports under another name, and it restores", async () => {
    await send(t, "exported");
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "out" } });
    const file = await exported(t, "out");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/octet-stream");
    expect(file.headers.get("content-disposition")).toContain('filename="out.msgctl-snapshot"');
    expect(file.bytes.subarray(0, 16).toString("latin1")).toBe("SQLite format 3\0");
    expect(Number(file.headers.get("content-length"))).toBe(file.bytes.length);

    const imported = await putSnapshot(t, "in", file.bytes);
    expect(imported.status).toBe(201);
    expect(imported.body.data).toMatchObject({ name: "in", format: 1, problem: null });
    await send(t, "later");
    await t.api("POST", "/sandbox/v1/snapshots/in/restore");
    expect(await texts(t)).toEqual(["exported"]);
  });

  it("a file that is not a snapshot is refused with 400 and keeps the snapshot of that name", async () => {
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "kept" } });
    const before = (await t.api("GET", "/sandbox/v1/snapshots/kept")).body.data;
    for (const bytes of [Buffer.from("not a database at all"), Buffer.alloc(0)]) {
      const res = await putSnapshot(t, "kept", bytes);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: "invalid_request",
        message: "The uploaded file is not a msgctl snapshot (export one with `msgctl snapshot export`)",
      });
    }
    // An SQLite database of another application.
    const other = join(folder, "other.db");
    const foreign = new Database(other);
    foreign.exec("CREATE TABLE IF NOT EXISTS t (x)");
    foreign.close();
    expect((await putSnapshot(t, "kept", readFileSync(other))).status).toBe(400);
    expect((await t.api("GET", "/sandbox/v1/snapshots/kept")).body.data).toEqual(before);
  });

  it("a snapshot of a newer format or schema is refused by name, naming the msgctl that wrote it", async () => {
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "now" } });
    const { bytes } = await exported(t, "now");
    const newerFormat = altered(bytes, (db) => {
      db.pragma("user_version = 2");
      db.prepare("UPDATE msgctl_snapshot SET value = '9.1.0' WHERE key = 'msgctl_version'").run();
    });
    const res = await putSnapshot(t, "future", newerFormat);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      "The uploaded file was written by msgctl 9.1.0 in snapshot format 2; this msgctl (0.1.0) reads format 1 and older: upgrade msgctl to restore it",
    );
    const newerSchema = altered(bytes, (db) => {
      db.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES ('0099-tomorrow', '2030-01-01')").run();
      db.prepare("UPDATE msgctl_snapshot SET value = '9.2.0' WHERE key = 'msgctl_version'").run();
    });
    const schema = await putSnapshot(t, "future", newerSchema);
    expect(schema.status).toBe(400);
    expect(schema.body.message).toContain("was written by msgctl 9.2.0, whose database has tables this msgctl");
    expect(schema.body.message).toContain("(0099-tomorrow): upgrade msgctl to restore it");
    expect((await t.api("GET", "/sandbox/v1/snapshots/future")).status).toBe(404);
  });

  it("a snapshot written by an older msgctl (an earlier schema) is brought up to date and restores", async () => {
    await send(t, "from an older msgctl");
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "old" } });
    // The schema before its newest migration (0009-speed replaced one index of jobs by three).
    const older = altered((await exported(t, "old")).bytes, (db) => {
      for (const index of ["jobs_free_due", "jobs_laned_due", "jobs_lane_head"]) db.exec(`DROP INDEX ${index}`);
      db.exec('CREATE INDEX "jobs_due" on "jobs" ("status", "due_at", "id")');
      db.prepare("DELETE FROM kysely_migration WHERE name = '0009-speed'").run();
    });
    const imported = await putSnapshot(t, "old", older);
    expect(imported.status).toBe(201);
    await send(t, "newer");
    expect((await t.api("POST", "/sandbox/v1/snapshots/old/restore")).status).toBe(200);
    expect(await texts(t)).toEqual(["from an older msgctl"]);
    // The queued message goes on: the jobs' table and its indexes are this msgctl's.
    await t.advance(5_000);
    expect(((await t.api("GET", "/v1/messages")).body.data as { status: string }[])[0]?.status).not.toBe("queued");
  });
});

describe("the activity stream on a restore", () => {
  const t = useSandbox({ socket: true });
  const abort = new AbortController();
  afterAll(() => abort.abort());

  it("carries a sandbox.restored frame with the snapshot and the clock; no event, no webhook", async () => {
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "start" } });
    await t.advance(3_600_000);
    const frames: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (frame) => frames.push(frame) });
    const res = await fetch(`${t.sandbox.baseUrl}/sandbox/v1/activity/stream`, {
      headers: { authorization: `Bearer ${KEY}` },
      signal: abort.signal,
    });
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
          parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        // aborted
      }
    })();
    const restored = await t.api("POST", "/sandbox/v1/snapshots/start/restore");
    await vi.waitFor(() => expect(frames.map((f) => f.event)).toContain("sandbox.restored"));
    const notice = frames.find((f) => f.event === "sandbox.restored");
    expect(JSON.parse(notice?.data ?? "{}")).toEqual({ snapshot: "start", clock: restored.body.data.clock });
    expect(frames.filter((f) => f.event === "event")).toEqual([]);
    expect((await t.api("GET", "/sandbox/v1/events")).body.data).toEqual([]);
  });
});
