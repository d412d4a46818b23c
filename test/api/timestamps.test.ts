import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launchSandbox } from "../../src/runtime/launch-sandbox.js";
import { IPHONE, MAIN, resetBeforeEach, send } from "../helpers/messages.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

/**
 * docs/spec-decisions.md, "Timestamps and paging": within each list that pages on a timestamp (an
 * account's messages, an account's chats) the timestamp is unique and increasing; every other
 * timestamp is the clock's time as it is.
 */

const BETA_KEY = "sk_test_beta_0000000000000000";
const twoAccounts = {
  accounts: [
    { name: "Acme", api_key: KEY, numbers: [{ handle: "+14155550101", channels: ["imessage", "sms"] }] },
    { name: "Beta", api_key: BETA_KEY, numbers: [{ handle: "+14155550111", channels: ["imessage", "sms"] }] },
  ],
};

describe("timestamps are unique per list, not across the sandbox", () => {
  const t = useSandbox({ fixture: twoAccounts });
  resetBeforeEach(t);

  it("two accounts sending 150 each in one millisecond: unique per account, ahead of the clock by at most their own count", async () => {
    const now = t.sandbox.ctx.clock.now();
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < 150; i++) {
      sends.push(t.api("POST", "/v1/messages", { body: { from_handle: "+14155550101", to: IPHONE, text: `a${i}` } }));
      sends.push(
        t.api("POST", "/v1/messages", {
          key: BETA_KEY,
          body: { from_handle: "+14155550111", to: IPHONE, text: `b${i}` },
        }),
      );
    }
    await Promise.all(sends);
    for (const key of [KEY, BETA_KEY]) {
      const times = await allCreatedAt(key);
      expect(times).toHaveLength(150);
      expect(new Set(times).size).toBe(150);
      expect(Math.min(...times)).toBe(now);
      // Each account's own 150 records need 150 milliseconds, not 300.
      expect(Math.max(...times) - now).toBe(149);
    }
  });

  /** Every created_at of the account's messages, walking the pages with `before`. */
  async function allCreatedAt(key: string): Promise<number[]> {
    const times: number[] = [];
    let before = "";
    for (;;) {
      const page = await t.api("GET", `/v1/messages?limit=40${before ? `&before=${encodeURIComponent(before)}` : ""}`, {
        key,
      });
      times.push(...page.body.data.map((m: { created_at: string }) => Date.parse(m.created_at)));
      if (!page.body.has_more) return times;
      before = page.body.data.at(-1).created_at;
    }
  }

  it("sent_at, delivered_at, read_at and event times are the clock's time at the transition, never bumped", async () => {
    const start = t.sandbox.ctx.clock.now();
    const messages = [];
    for (let i = 0; i < 5; i++) messages.push(await send(t, { from_handle: MAIN, text: `#${i}` }));
    await t.advance(200);
    await t.advance(500);
    await t.advance(2_000);
    for (const id of messages.map((m) => m.id)) {
      const m = (await t.api("GET", `/v1/messages/${id}`)).body.data;
      expect([m.sent_at, m.delivered_at, m.read_at].map(Date.parse)).toEqual([start + 200, start + 700, start + 2_700]);
    }
    const events = (await t.api("GET", "/sandbox/v1/events?limit=100")).body.data as {
      type: string;
      created_at: string;
    }[];
    const byType = (type: string) =>
      new Set(events.filter((e) => e.type === type).map((e) => Date.parse(e.created_at)));
    expect(byType("message.sent")).toEqual(new Set([start + 200]));
    expect(byType("message.delivered")).toEqual(new Set([start + 700]));
    expect(byType("message.read")).toEqual(new Set([start + 2_700]));
  });

  it("a record's later times never read before its created_at when a busy millisecond bumped it ahead of the clock", async () => {
    const start = t.sandbox.ctx.clock.now();
    const sends = Array.from({ length: 300 }, (_, i) =>
      t.api("POST", "/v1/messages", { body: { from_handle: MAIN, to: IPHONE, text: `m${i}` } }),
    );
    await Promise.all(sends);
    await t.advance(200);
    await t.advance(500);
    const page = (await t.api("GET", "/v1/messages?limit=100")).body.data as {
      created_at: string;
      sent_at: string;
      delivered_at: string;
    }[];
    // The newest 100 were created at start+200 to start+299: after the clock's +200 and +700.
    for (const m of page) {
      const [created, sent, delivered] = [m.created_at, m.sent_at, m.delivered_at].map(Date.parse) as [
        number,
        number,
        number,
      ];
      expect(sent).toBe(Math.max(created, start + 200));
      expect(delivered).toBe(Math.max(sent, start + 700));
    }
    const events = (await t.api("GET", "/sandbox/v1/events?limit=100&type=message.sent")).body.data as {
      payload: { message_id: string; sent_at: string };
    }[];
    const created = new Map(page.map((m) => [(m as unknown as { id: string }).id, Date.parse(m.created_at)]));
    for (const { payload } of events)
      if (created.has(payload.message_id))
        expect(Date.parse(payload.sent_at)).toBeGreaterThanOrEqual(created.get(payload.message_id) as number);

    // Two webhooks in one millisecond: the second's created_at is a millisecond ahead.
    await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/a" } });
    const second = (await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/b" } })).body.data;
    const patched = (await t.api("PATCH", `/v1/webhooks/${second.id}`, { body: { events: ["message.sent"] } })).body
      .data;
    expect(Date.parse(patched.updated_at)).toBeGreaterThanOrEqual(Date.parse(patched.created_at));
    const [chat] = (await t.api("GET", "/v1/chats")).body.data;
    expect(Date.parse(chat.updated_at)).toBeGreaterThanOrEqual(Date.parse(chat.last_message_at));
  });

  it("a chat's last_message_at is its newest message's created_at, so chats page without skips", async () => {
    const contacts = Array.from({ length: 30 }, (_, i) => `+1415555${String(100 + i).padStart(4, "0")}`);
    for (const to of contacts) await send(t, { from_handle: MAIN, to });
    const seen: string[] = [];
    let before = "";
    for (;;) {
      const page = await t.api("GET", `/v1/chats?limit=7${before ? `&before=${encodeURIComponent(before)}` : ""}`);
      seen.push(...page.body.data.map((c: { remote_handle: string }) => c.remote_handle));
      if (!page.body.has_more) break;
      before = page.body.data.at(-1).last_message_at;
    }
    expect(seen).toEqual([...contacts].reverse());
  });
});

describe("a restart keeps each list increasing", () => {
  it("a real clock over a database whose manual clock was advanced 2 days goes on from there, and a manual one after it too", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-modes-")), "sandbox.db");
    const manual = await launchSandbox({ db, clock: "manual", listen: false });
    await manual.control.advance(2 * 86_400_000);
    const stood = manual.control.clock().now;
    await manual.stop();
    const real = await launchSandbox({ db, clock: "real", listen: false });
    expect(real.control.clock().mode).toBe("real");
    expect(real.control.clock().now).toBeGreaterThanOrEqual(stood);
    expect(real.control.clock().now - stood).toBeLessThan(60_000);
    const realStood = real.control.clock().now;
    await real.stop();
    const again = await launchSandbox({ db, clock: "manual", listen: false });
    expect(again.control.clock().now).toBeGreaterThanOrEqual(realStood);
    await again.stop();
  });

  it("the next message of an account never sorts before the last one", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-times-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const sendOne = async (app: typeof first.messagingApp) => {
      const res = await app.request("/v1/messages", {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ from_handle: MAIN, to: IPHONE, text: "x" }),
      });
      return (await res.json()).data as { id: string; created_at: string };
    };
    const before: { id: string; created_at: string }[] = [];
    for (let i = 0; i < 20; i++) before.push(await sendOne(first.messagingApp));
    await first.stop();
    // The manual clock resumes where it stood: the 20 messages took 20 milliseconds beyond it.
    const second = await launchSandbox({ db, clock: "manual", listen: false });
    const after = await sendOne(second.messagingApp);
    const last = before.at(-1) as { id: string; created_at: string };
    expect(Date.parse(after.created_at)).toBeGreaterThan(Date.parse(last.created_at));
    // Time-ordered ids still sort in creation order.
    expect([...before, after].map((m) => m.id)).toEqual([...before, after].map((m) => m.id).sort());
    await second.stop();
  });
});
