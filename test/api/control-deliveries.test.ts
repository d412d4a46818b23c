import { createParser, type EventSourceMessage } from "eventsource-parser";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const OTHER_KEY = "sk_test_globex_000000000000000";
const fixture = parseFixture(
  {
    accounts: [
      { name: "Acme", api_key: KEY },
      { name: "Globex", api_key: OTHER_KEY },
    ],
  },
  "test fixture",
);

/** Reads server-sent events from a streaming response into an array. */
function collect(response: Response): { messages: EventSourceMessage[]; done: Promise<void> } {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  const done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      // aborted by the test
    }
  })();
  return { messages, done };
}

describe("control API: webhook deliveries", () => {
  const t = useSandbox({ socket: true, fixture });
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.reply(() => ({ status: 204 }));
  });

  const createHook = async (path = "/hook", key = KEY) =>
    (await t.api("POST", "/v1/webhooks", { body: { url: receiver.url.replace("/hook", path) }, key })).body.data as {
      id: string;
    };

  it("lists the account's deliveries newest first, filtered by endpoint, status and event, paged", async () => {
    const a = await createHook("/a");
    const b = await createHook("/b");
    receiver.reply((request) => ({ status: request.path === "/b" ? 500 : 204 }));
    const first = emitTestEvent(t.sandbox.ctx);
    const second = emitTestEvent(t.sandbox.ctx, "message.read");
    await t.advance(0);
    const all = (await t.api("GET", "/sandbox/v1/deliveries")).body;
    expect(all.has_more).toBe(false);
    expect(all.data.map((d: any) => [d.event_id, d.webhook_id])).toEqual([
      [second.id, b.id],
      [second.id, a.id],
      [first.id, b.id],
      [first.id, a.id],
    ]);
    expect(Object.keys(all.data[0]).sort()).toEqual([
      "attempts",
      "chaos",
      "created_at",
      "event_id",
      "event_type",
      "id",
      "next_attempt_at",
      "status",
      "webhook_id",
    ]);
    const pending = (await t.api("GET", `/sandbox/v1/deliveries?status=pending`)).body.data;
    expect(pending.every((d: any) => d.webhook_id === b.id)).toBe(true);
    expect(pending).toHaveLength(2);
    const ofA = (await t.api("GET", `/sandbox/v1/deliveries?webhook_id=${a.id}&status=succeeded`)).body.data;
    expect(ofA).toHaveLength(2);
    const ofEvent = (await t.api("GET", `/sandbox/v1/deliveries?event_id=${first.id}`)).body.data;
    expect(ofEvent).toHaveLength(2);
    const page1 = (await t.api("GET", "/sandbox/v1/deliveries?limit=3")).body;
    expect(page1.has_more).toBe(true);
    const page2 = (
      await t.api("GET", `/sandbox/v1/deliveries?limit=3&before=${encodeURIComponent(page1.data[2].created_at)}`)
    ).body;
    expect(page2.data.map((d: any) => d.id)).toEqual([all.data[3].id]);
  });

  it("GET one; 404 for unknown, malformed or another account's ids", async () => {
    await createHook();
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const [mine] = (await t.api("GET", "/sandbox/v1/deliveries")).body.data;
    const one = await t.api("GET", `/sandbox/v1/deliveries/${mine.id}`);
    expect(one.body.data).toEqual(mine);
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      expect((await t.api("GET", `/sandbox/v1/deliveries/${id}`)).status).toBe(404);
    }
    const theirs = await t.api("GET", `/sandbox/v1/deliveries/${mine.id}`, { key: OTHER_KEY });
    expect(theirs.status).toBe(404);
    expect((await t.api("GET", "/sandbox/v1/deliveries", { key: OTHER_KEY })).body.data).toEqual([]);
  });

  it.each([
    ["status=done", "status"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["before=yesterday", "before"],
    ["webhook_id=00000000-0000-4000-8000-000000000000", "webhook_id"],
    ["event_id=00000000-0000-4000-8000-000000000000", "event_id"],
    ["event_id=bogus", "event_id"],
  ])("refuses ?%s with 400 invalid_request naming %s", async (query, field) => {
    const res = await t.api("GET", `/sandbox/v1/deliveries?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.message).toContain(field);
  });

  it("refuses an event_id filter of another account's event", async () => {
    await createHook("/theirs", OTHER_KEY);
    const theirs = emitTestEvent(t.sandbox.ctx, "message.sent", {}, "Globex");
    expect((await t.api("GET", `/sandbox/v1/deliveries?event_id=${theirs.id}`)).status).toBe(400);
  });

  it("refuses a webhook_id filter of another account's endpoint, but takes a deleted one of its own", async () => {
    const theirs = await createHook("/theirs", OTHER_KEY);
    expect((await t.api("GET", `/sandbox/v1/deliveries?webhook_id=${theirs.id}`)).status).toBe(400);
    const mine = await createHook();
    await t.api("DELETE", `/v1/webhooks/${mine.id}`);
    expect((await t.api("GET", `/sandbox/v1/deliveries?webhook_id=${mine.id}`)).status).toBe(200);
  });

  it("streams each recorded attempt live, for one endpoint or all of the account's", async () => {
    const a = await createHook("/a");
    const b = await createHook("/b");
    await createHook("/theirs", OTHER_KEY);
    const abort = new AbortController();
    const headers = { authorization: `Bearer ${KEY}`, accept: "text/event-stream" };
    const onlyA = collect(
      await fetch(`${t.sandbox.baseUrl}/sandbox/v1/deliveries/stream?webhook_id=${a.id}`, {
        headers,
        signal: abort.signal,
      }),
    );
    const every = collect(
      await fetch(`${t.sandbox.baseUrl}/sandbox/v1/deliveries/stream`, { headers, signal: abort.signal }),
    );
    receiver.reply((request) => ({ status: request.path === "/a" ? 500 : 202 }));
    const event = emitTestEvent(t.sandbox.ctx);
    emitTestEvent(t.sandbox.ctx, "message.sent", {}, "Globex");
    await t.advance(5_000);
    await vi.waitFor(() => expect(every.messages).toHaveLength(3));
    abort.abort();
    await Promise.all([onlyA.done, every.done]);
    const attempts = (list: EventSourceMessage[]) =>
      list.map((m) => {
        const d = JSON.parse(m.data);
        return [m.event, d.webhook_id, d.event_id, d.attempts.at(-1).n, d.attempts.at(-1).status_code];
      });
    expect(attempts(onlyA.messages)).toEqual([
      ["attempt", a.id, event.id, 1, 500],
      ["attempt", a.id, event.id, 2, 500],
    ]);
    expect(attempts(every.messages)).toEqual([
      ["attempt", a.id, event.id, 1, 500],
      ["attempt", b.id, event.id, 1, 202],
      ["attempt", a.id, event.id, 2, 500],
    ]);
  });

  it("the stream refuses a webhook_id that is not the account's", async () => {
    const res = await t.api("GET", "/sandbox/v1/deliveries/stream?webhook_id=nope");
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("webhook_id");
  });
});
