// `clock advance 24h` over 1,000 queued messages, each reaching read, with no webhook: 3,000
// transitions, 3,000 events and the jobs between them. The reference is raw better-sqlite3 doing
// the same writes: per transition an update, an event insert, a job insert and a job delete.
import Database from "better-sqlite3";
import { advance, allEvents, cpuMs, elapsedMs, ownCpuMs, round, sendMessages, serve, stop } from "./common.mjs";

const MESSAGES = 1_000;

function rawTransitions(count) {
  const db = new Database(":memory:");
  db.exec(
    "CREATE TABLE m (id INTEGER PRIMARY KEY, status TEXT); CREATE TABLE e (seq INTEGER PRIMARY KEY AUTOINCREMENT, payload TEXT); CREATE TABLE j (id INTEGER PRIMARY KEY AUTOINCREMENT, due INTEGER)",
  );
  const insert = db.prepare("INSERT INTO m (id, status) VALUES (?, 'queued')");
  for (let i = 0; i < count; i++) insert.run(i);
  const update = db.prepare("UPDATE m SET status = ? WHERE id = ?");
  const event = db.prepare("INSERT INTO e (payload) VALUES (?)");
  const job = db.prepare("INSERT INTO j (due) VALUES (?)");
  const done = db.prepare("DELETE FROM j WHERE id = ?");
  const started = process.hrtime.bigint();
  for (const status of ["sent", "delivered", "read"]) {
    for (let i = 0; i < count; i++) {
      db.transaction(() => {
        update.run(status, i);
        event.run(JSON.stringify({ type: `message.${status}`, message_id: i }));
        done.run(job.run(i).lastInsertRowid);
      })();
    }
  }
  return elapsedMs(started);
}

/** The advance, plus an idle 24 h advance first (nothing due: it must take milliseconds, docs/sandbox.md). */
export async function advanceToRead() {
  const { child, base } = await serve(["--db", ":memory:", "--clock", "manual"]);
  try {
    const idle = await advance(base, "24h");
    await sendMessages(base, MESSAGES);
    const cpuBefore = cpuMs(child.pid);
    const took = await advance(base, "24h");
    const cpu = cpuMs(child.pid) - cpuBefore;
    const read = (await allEvents(base)).filter((event) => event.type === "message.read").length;
    if (read !== MESSAGES) throw new Error(`advance: ${read} messages read, expected ${MESSAGES}`);
    const ownBefore = ownCpuMs();
    const reference = rawTransitions(MESSAGES);
    const referenceCpu = ownCpuMs() - ownBefore;
    return {
      idle_24h_ms: round(idle, 1),
      messages: MESSAGES,
      read,
      msgctl_ms: round(took, 1),
      reference_ms: round(reference, 1),
      ratio: round(took / reference),
      msgctl_cpu_ms: round(cpu, 0),
      reference_cpu_ms: round(referenceCpu, 0),
      cpu_ratio: round(cpu / referenceCpu),
    };
  } finally {
    await stop(child);
  }
}
