// The 1,000,000-message database for the stored-message benchmark (bench/stored.mjs).
//   node bench/stored-db.mjs [path] [messages]   (default bench/.data/stored.db, 1,000,000)
//
// msgctl itself creates the file (startSandbox from the built dist: every migration, the fixture's
// accounts, numbers and keys), then the rows are bulk-inserted with better-sqlite3 into that
// migrated schema, as the store's own inserts would write them: a send through the API costs a
// few milliseconds and would take hours for a million. Column lists come from the schema, so a
// new column with a default never breaks the generator. Nothing here is committed (.gitignore).
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { ROOT } from "./common.mjs";
import { idSource, prng, rowWriters, WORDS } from "./stored-db-rows.mjs";
import { planThreads } from "./stored-db-threads.mjs";

/** Two accounts: Acme holds the million; Globex's messages interleave with them (isolation). */
export const STORED_FIXTURE = {
  accounts: [
    {
      name: "Acme",
      app_name: "Acme",
      api_key: "sk_test_acme_0000000000000000",
      otp_api_key: "otp_live_acme_000000000000000",
      numbers: [
        { handle: "+14155550101", channels: ["imessage", "sms"], label: "main" },
        { handle: "+14155550102", channels: ["whatsapp"], label: "support", whatsapp_api: "cloud" },
        { handle: "+14155550103", channels: ["imessage", "sms", "whatsapp"], label: "sales", whatsapp_api: "linked" },
      ],
    },
    {
      name: "Globex",
      app_name: "Globex",
      api_key: "sk_test_globex_00000000000000",
      otp_api_key: "otp_live_globex_0000000000000",
      numbers: [{ handle: "+14155550111", channels: ["imessage", "sms"], label: "main" }],
    },
  ],
  contacts: [],
};

export const DEFAULT_PATH = join(ROOT, "bench/.data/stored.db");

const DAY = 86_400_000;
/** The first message; the last comes about a year later (an average gap of ~30 s). */
const START = Date.parse("2025-11-01T00:00:00Z");

/** Lets msgctl create and migrate the file and seed the fixture's accounts, numbers and keys. */
async function createWithMsgctl(path) {
  const { startSandbox } = await import(join(ROOT, "dist/index.js"));
  const sandbox = await startSandbox({ db: path, fixture: STORED_FIXTURE, clock: "manual" });
  await sandbox.stop();
}

/**
 * Builds the database at `path` (replacing it): `messages` for Acme over a few thousand threads
 * (one-to-one on text and WhatsApp, and groups), a tenth as many for Globex, interleaved in time.
 * Resolves with what was written and how long it took.
 */
export async function generateStoredDb(path = DEFAULT_PATH, messages = 1_000_000) {
  const started = performance.now();
  mkdirSync(dirname(path), { recursive: true });
  for (const suffix of ["", "-wal", "-shm"]) rmSync(path + suffix, { force: true });
  await createWithMsgctl(path);
  const migratedMs = performance.now() - started;

  const raw = new Database(path);
  const accountIds = Object.fromEntries(
    raw
      .prepare("SELECT name, id FROM accounts")
      .all()
      .map((row) => [row.name, row.id]),
  );
  // A throwaway bulk load: no journal, no fsync; the file goes back to WAL at the end.
  raw.pragma("journal_mode = OFF");
  raw.pragma("synchronous = OFF");
  raw.pragma("cache_size = -262144");
  const random = prng(14);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const newId = idSource();

  const {
    insertConversation,
    insertParticipant,
    insertGroup,
    insertMember,
    insertMessage,
    insertGroupMessage,
    insertReceipt,
    insertAttachment,
  } = rowWriters(raw);

  // --- Threads ---
  const counts = { conversations: 0, groups: 0, messages: 0, groupMessages: 0, receipts: 0, attachments: 0 };
  const { threads, choose } = planThreads({
    random,
    pick,
    newId,
    accountIds,
    threadStart: START - 30 * DAY,
    insertGroup,
    insertMember,
    counts,
  });

  // --- Messages, oldest first: created_at unique and increasing across both accounts ---
  const total = messages + Math.round(messages / 10);
  const meanGap = (365 * DAY) / total;
  let t = START;
  const text = () => {
    const words = 2 + Math.floor(random() * 18);
    let s = "";
    for (let i = 0; i < words; i++) s += (i ? " " : "") + pick(WORDS);
    return s;
  };
  const write = raw.transaction(() => {
    for (let n = 0; n < total; n++) {
      const account = random() < messages / total ? "Acme" : "Globex";
      const thread = choose[account]();
      const outbound = random() < 0.55;
      const copies = thread.kind === "group" && !outbound ? thread.copies : [thread];
      const body = random() < 0.97 ? text() : null;
      const metadata = outbound && random() < 0.05 ? JSON.stringify({ order_id: `A-${n}` }) : null;
      const withMedia = body === null || random() < 0.02;
      const sender = thread.kind === "group" ? pick(thread.contacts) : thread.remote;
      const originId = thread.kind === "group" ? newId(t + 1) : null;
      for (const [copy, target] of copies.entries()) {
        t += 1 + Math.floor(random() * 2 * meanGap);
        const id = copy === 0 && originId ? originId : newId(t);
        const channel = target.textChannel;
        // Statuses as a year of traffic leaves them: mostly read or delivered, a few failed or unsent.
        const roll = random();
        let status;
        if (outbound)
          status =
            roll < 0.03 ? "failed" : roll < 0.05 ? "unsent" : roll < 0.1 ? "sent" : roll < 0.45 ? "delivered" : "read";
        else status = roll < 0.25 ? "delivered" : "read";
        const sentAt = outbound && status !== "failed" ? t + 300 + Math.floor(random() * 1500) : null;
        const deliveredAt = outbound
          ? ["delivered", "read", "unsent"].includes(status)
            ? sentAt + 200 + Math.floor(random() * 3000)
            : null
          : t;
        const readAt = status === "read" ? (deliveredAt ?? t) + Math.floor(random() * 3_600_000) : null;
        const updatedAt = Math.max(t, sentAt ?? 0, deliveredAt ?? 0, readAt ?? 0);
        insertMessage(
          id,
          accountIds[account],
          target.id,
          outbound ? "outbound" : "inbound",
          status,
          status === "failed" ? null : channel,
          target.from,
          outbound ? (thread.kind === "group" ? thread.groupId : target.remote) : sender,
          target.service === "whatsapp" ? "whatsapp" : null,
          body,
          null,
          null,
          status === "failed"
            ? `${target.remote ?? sender} is not registered with iMessage and ${target.from} does not serve SMS`
            : null,
          metadata,
          withMedia ? 1 : 0,
          0,
          "fit",
          outbound ? 1 : 0,
          outbound ? t : null,
          30_000,
          null,
          0,
          sentAt,
          deliveredAt,
          readAt,
          null,
          t,
          updatedAt,
        );
        counts.messages++;
        if (thread.kind === "group") {
          insertGroupMessage(id, thread.groupId, originId, t);
          counts.groupMessages++;
          if (outbound) {
            target.contacts.forEach((handle, i) => insertReceipt(id, handle, i + 1, deliveredAt, readAt));
            counts.receipts += target.contacts.length;
          }
        }
        if (withMedia) {
          insertAttachment(
            newId(t),
            accountIds[account],
            id,
            0,
            "uploaded",
            "photo.jpg",
            "image/jpeg",
            180_000 + Math.floor(random() * 2_000_000),
            randomBytes(32).toString("hex"),
            0,
            t,
            t,
          );
          counts.attachments++;
        }
        target.last = t;
        if (status !== "failed") target.channel = channel;
        if (!outbound && target.inboundAt === null) target.inboundAt = t;
      }
    }
    // --- Each thread as its last message left it ---
    for (const account of Object.keys(threads)) {
      for (const thread of threads[account]) {
        const last = thread.last ?? thread.createdAt;
        const group = thread.kind === "group";
        insertConversation(
          thread.id,
          accountIds[account],
          thread.from,
          group ? null : thread.remote,
          group ? "text" : thread.service,
          group ? 1 : 0,
          null,
          thread.channel,
          thread.inboundAt,
          last,
          thread.createdAt,
          last,
          group ? thread.groupId : null,
          null,
          null,
        );
        if (!group) insertParticipant(thread.id, thread.remote, thread.createdAt);
      }
    }
    // The manual clock resumes a minute after the last message, and records follow it.
    raw.prepare("UPDATE clock_state SET now_ms = ?, last_record_ms = ?").run(t + 60_000, t);
  });
  write();
  raw.pragma("journal_mode = WAL");
  raw.close();
  return {
    path,
    ...counts,
    last_message_at: new Date(t).toISOString(),
    migrate_ms: Math.round(migratedMs),
    total_ms: Math.round(performance.now() - started),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, count] = process.argv.slice(2);
  console.log(JSON.stringify(await generateStoredDb(path || DEFAULT_PATH, count ? Number(count) : undefined)));
}
