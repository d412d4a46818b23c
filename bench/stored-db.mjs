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

// --- A deterministic generator (mulberry32), so two runs build the same database ---
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "ok thanks see you tomorrow order shipped when can we meet running late the package arrived great news call me back please confirm your appointment at 3pm is the store open today love it sounds good".split(
    " ",
  );

/** Ids in the layout of lib/time-ordered-id.ts: 48 bits of milliseconds, version 7, random bits. */
function idSource() {
  let pool = Buffer.alloc(0);
  let at = 0;
  return (ms) => {
    if (at + 9 > pool.length) {
      pool = randomBytes(9 << 16);
      at = 0;
    }
    const r = pool.toString("hex", at, at + 9);
    const variant = (8 + (pool[at] & 3)).toString(16);
    at += 9;
    const time = Math.floor(ms).toString(16).padStart(12, "0");
    return `${time.slice(0, 8)}-${time.slice(8)}-7${r.slice(0, 3)}-${variant}${r.slice(3, 6)}-${r.slice(6, 18)}`;
  };
}

/** An insert of `row`'s columns into `table`, with every other column left to its default. */
function inserter(raw, table, columns) {
  const known = new Set(raw.pragma(`table_info(${table})`).map((c) => c.name));
  for (const column of columns)
    if (!known.has(column)) throw new Error(`${table}.${column}: not in the migrated schema`);
  const statement = raw.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  );
  return (...values) => statement.run(...values);
}

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

  const insertConversation = inserter(raw, "conversations", [
    "id",
    "account_id",
    "from_handle",
    "remote_handle",
    "service",
    "is_group",
    "title",
    "channel",
    "inbound_at",
    "last_message_at",
    "created_at",
    "updated_at",
    "group_id",
    "typing_until",
    "last_read_at",
  ]);
  const insertParticipant = inserter(raw, "conversation_participants", ["conversation_id", "handle", "created_at"]);
  const insertGroup = inserter(raw, "chat_groups", ["id", "account_id", "kind", "title", "created_at", "updated_at"]);
  const insertMember = inserter(raw, "chat_group_members", ["group_id", "handle", "position", "created_at"]);
  const MESSAGE_COLUMNS = [
    "id",
    "account_id",
    "conversation_id",
    "direction",
    "status",
    "channel",
    "number_handle",
    "remote_handle",
    "requested_channel",
    "text",
    "effect",
    "reply_to",
    "error",
    "metadata",
    "has_attachments",
    "voice_memo",
    "media_quality",
    "attempts",
    "first_attempt_at",
    "backoff_ms",
    "next_attempt_at",
    "generation",
    "sent_at",
    "delivered_at",
    "read_at",
    "edited_at",
    "created_at",
    "updated_at",
  ];
  const insertMessage = inserter(raw, "messages", MESSAGE_COLUMNS);
  const insertGroupMessage = inserter(raw, "group_messages", ["message_id", "group_id", "origin_id", "created_at"]);
  const insertReceipt = inserter(raw, "group_receipts", [
    "message_id",
    "handle",
    "position",
    "delivered_at",
    "read_at",
  ]);
  const insertAttachment = inserter(raw, "attachments", [
    "id",
    "account_id",
    "message_id",
    "position",
    "status",
    "filename",
    "mime_type",
    "size_bytes",
    "blob",
    "is_voice_memo",
    "created_at",
    "updated_at",
  ]);

  // --- Threads ---
  // Each account's threads, with a weight: a few busy threads, a long tail (Zipf, s = 0.9).
  const threads = { Acme: [], Globex: [] };
  const counts = { conversations: 0, groups: 0, messages: 0, groupMessages: 0, receipts: 0, attachments: 0 };
  const threadStart = START - 30 * DAY;
  const addThread = (account, thread) => {
    const createdAt = threadStart + Math.floor(random() * 30 * DAY);
    Object.assign(thread, { id: newId(createdAt), createdAt, last: null, inboundAt: null, channel: null });
    threads[account].push(thread);
    counts.conversations++;
  };
  const plan = {
    Acme: {
      oneToOne: 3000,
      groups: 200,
      numbers: ["+14155550101", "+14155550103"],
      whatsapp: ["+14155550102", "+14155550103"],
    },
    Globex: { oneToOne: 400, groups: 20, numbers: ["+14155550111"], whatsapp: [] },
  };
  for (const [account, shape] of Object.entries(plan)) {
    const contact = (i) => `+1628${account === "Acme" ? "5" : "6"}${String(i).padStart(6, "0")}`;
    for (let i = 0; i < shape.oneToOne; i++) {
      const whatsapp = shape.whatsapp.length > 0 && random() < 0.12;
      addThread(account, {
        kind: "direct",
        from: whatsapp ? pick(shape.whatsapp) : pick(shape.numbers),
        remote: contact(i),
        service: whatsapp ? "whatsapp" : "text",
        textChannel: whatsapp ? "whatsapp" : random() < 0.75 ? "imessage" : "sms",
      });
    }
    for (let g = 0; g < shape.groups; g++) {
      const groupCreatedAt = threadStart + Math.floor(random() * 30 * DAY);
      const groupId = newId(groupCreatedAt);
      const kind = random() < 0.85 ? "imessage" : "mms";
      const contacts = Array.from({ length: 2 + Math.floor(random() * 6) }, () =>
        contact(Math.floor(random() * shape.oneToOne)),
      );
      const numbers = shape.numbers.length > 1 && random() < 0.2 ? shape.numbers : [pick(shape.numbers)];
      const members = [...new Set([...numbers, ...contacts])];
      insertGroup(
        groupId,
        accountIds[account],
        kind,
        random() < 0.6 ? `Group ${g}` : null,
        groupCreatedAt,
        groupCreatedAt,
      );
      members.forEach((handle, i) => insertMember(groupId, handle, i + 1, groupCreatedAt));
      counts.groups++;
      const views = numbers.map((number) => ({
        kind: "group",
        groupId,
        from: number,
        contacts: members.filter((h) => !numbers.includes(h)),
        textChannel: kind === "imessage" ? "imessage" : "sms",
      }));
      // An inbound group message is recorded once per member number (spec 4.5): copies.
      for (const view of views) {
        view.copies = views;
        addThread(account, view);
      }
    }
  }
  // Busy and quiet threads of every kind: ranks in a shuffled order.
  for (const list of Object.values(threads)) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
  const chooser = (list) => {
    const cumulative = [];
    let total = 0;
    list.forEach((_, i) => cumulative.push((total += 1 / (i + 1) ** 0.9)));
    return () => {
      const x = random() * total;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return list[lo];
    };
  };
  const choose = { Acme: chooser(threads.Acme), Globex: chooser(threads.Globex) };

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
