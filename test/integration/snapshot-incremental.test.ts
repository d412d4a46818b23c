import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/index.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

/**
 * Restoring the snapshot the sandbox saved or restored last rewrites only the rows written since
 * (docs/snapshots.md, "Speed"). Whatever path a restore takes, every table ends row for row,
 * rowids included, as the snapshot's file has it: checked here on the database file itself after
 * the kinds of writes a test makes.
 */

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";
const OTHER = "+14155550192";

const folder = mkdtempSync(join(tmpdir(), "msgctl-snapshot-rows-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const dbFile = join(folder, "sandbox.db");
const snapshotFile = (name: string) => join(folder, "snapshots", `${name}.msgctl-snapshot`);

/** Every row of every table a restore replaces, with its rowid, read from a database file. */
function rowsOf(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' AND name NOT LIKE 'msgctl_snapshot%' AND name != 'clock_state' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    const rows: Record<string, unknown[]> = {};
    for (const table of [...tables, "sqlite_sequence"]) {
      rows[table] = db.prepare(`SELECT rowid AS row_id, * FROM "${table}" ORDER BY rowid`).all();
    }
    return rows;
  } finally {
    db.close();
  }
}

describe("a restore, whichever rows it rewrites, leaves every table as the snapshot's file has it", () => {
  let sb: StartedSandbox;
  const app = useReceiver();
  beforeAll(async () => {
    sb = await startSandbox({ db: dbFile });
    app.reply(() => ({ status: 500 }));
  });
  afterAll(() => sb.stop());

  /** What a test does: sends, replies, reactions, a group, webhooks retrying, OTP, deletions. */
  async function aTest(round: number) {
    const c = sb.client;
    const { message } = await c.messages.send({ from_handle: NUMBER, to: CONTACT, text: `round ${round}` });
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: `reply ${round}` });
    await sb.clock.advance("3s");
    await sb.simulate.reaction({ message_id: message.id, from: CONTACT, reaction: "love" });
    await c.messages.unsend(message.id);
    await c.contacts.set(OTHER, { platform: "ios", imessage: true });
    await c.chats.create({ from_handle: NUMBER, addresses: [CONTACT, OTHER], message: `group ${round}` });
    await c.contacts.set(OTHER, { read_receipts: false });
    await sb.simulate.fault(NUMBER, "transient", { count: 1 });
    const hook = await c.webhooks.create({ url: `${app.url}/${round}`, events: ["message.received"] });
    await sb.simulate.inbound({ from: OTHER, to: NUMBER, text: `to a failing hook ${round}` });
    await sb.settle();
    await c.webhooks.delete(hook.webhook.id);
    const challenge = await sb.otp.create(CONTACT);
    await sb.otp.text(challenge.id);
    await c.accounts.create({ name: `Made in round ${round}` });
    // An account of the snapshot deleted (there is none after a reset).
    if ((await c.accounts.list()).some((a) => a.name === "Globex")) await c.accounts.delete("Globex");
    await sb.settings.update({ send_latency_ms: 100 + round });
    await sb.clock.advance("10m");
  }

  // Five rounds of a test's writes and 1,100 sends: on a loaded machine this takes a while.
  it("after a test's writes, after another snapshot, after a wipe, and after a table written whole", {
    timeout: 90_000,
  }, async () => {
    const c = sb.client;
    await c.accounts.create({ name: "Globex" });
    await c.webhooks.create({ url: app.url, events: ["message.received", "message.sent"] });
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "before the save" });
    await sb.clock.advance("1s");
    await sb.settle();
    await sb.snapshot("base");
    const base = rowsOf(snapshotFile("base"));

    // The snapshot just saved: only what the test wrote is rewritten.
    await aTest(1);
    expect(rowsOf(dbFile)).not.toEqual(base);
    await sb.restore("base");
    expect(rowsOf(dbFile)).toEqual(base);
    // Restored last: again.
    await aTest(2);
    await sb.restore("base");
    expect(rowsOf(dbFile)).toEqual(base);

    // Another snapshot saved meanwhile: the next restore of "base" copies everything.
    await aTest(3);
    await sb.snapshot("other");
    await sb.restore("base");
    expect(rowsOf(dbFile)).toEqual(base);
    await sb.restore("other");
    expect(rowsOf(dbFile)).toEqual(rowsOf(snapshotFile("other")));

    // A reset wipes every table; the restore after it copies everything.
    await sb.restore("base");
    await sb.reset();
    await aTest(4);
    await sb.restore("base");
    expect(rowsOf(dbFile)).toEqual(base);

    // More than 1,000 rows of a table written: that table is copied whole, the others row by row.
    for (let i = 0; i < 1_100; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, k) =>
          c.messages.send({ from_handle: NUMBER, to: `+1415555${String(3000 + i + k)}`, text: `bulk ${i + k}` }),
        ),
      );
    }
    await aTest(5);
    await sb.restore("base");
    expect(rowsOf(dbFile)).toEqual(base);
  });
});
