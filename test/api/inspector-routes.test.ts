import { createParser, type EventSourceMessage } from "eventsource-parser";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

/**
 * What the inspector reads (docs/inspector.md, docs/control-api.md "Activity"): the page and its
 * files with their caching headers, the activity stream, the reactions of a thread, one event.
 */

const OTHER_KEY = "sk_test_globex_000000000000000";
const fixture = parseFixture(
  {
    accounts: [
      { name: "Acme", api_key: KEY, numbers: [{ handle: "+14155550101", channels: ["imessage", "sms"] }] },
      { name: "Globex", api_key: OTHER_KEY, numbers: [{ handle: "+14155550104", channels: ["imessage", "sms"] }] },
    ],
  },
  "test fixture",
);
const MAIN = "+14155550101";
const IPHONE = "+14155550191";

describe("the inspector's page and files", () => {
  const t = useSandbox({ fixture });

  it("serves the page at / with a key it may show, never cached, under a content security policy", async () => {
    const res = await t.api("GET", "/", { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const html = res.body as string;
    expect(html).toContain(`<script id="msgctl-config" type="application/json">{"key":"${KEY}"}</script>`);
    expect(html).toMatch(/<script type="module" src="\/inspector\/app-[A-Z0-9]+\.js">/);
  });

  it("serves the script and style by their hashed names, cached for a year, gzipped when asked", async () => {
    const html = (await t.api("GET", "/", { key: null })).body as string;
    const [script, style] = [/app-[A-Z0-9]+\.js/, /app-[A-Z0-9]+\.css/].map((pattern) => pattern.exec(html)?.[0]);
    const plain = await t.sandbox.messagingApp.request(`/inspector/${script}`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.get("content-encoding")).toBeNull();
    const body = Buffer.from(await plain.arrayBuffer());
    const zipped = await t.sandbox.messagingApp.request(`/inspector/${script}`, {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).equals(body)).toBe(true);
    const css = await t.sandbox.messagingApp.request(`/inspector/${style}`);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("answers 404 in the spec's shape for any other name: unknown, index.html, paths", async () => {
    for (const name of ["app-NOPE.js", "index.html", "..%2Fpackage.json", "%2E%2E%2F%2E%2E%2Fpackage.json"]) {
      const res = await t.api("GET", `/inspector/${name}`, { key: null });
      expect(res.status, name).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", request_id: expect.stringMatching(/^req_/) });
    }
  });
});

describe("control API: the activity stream", () => {
  const t = useSandbox({ socket: true, fixture });
  let abort: AbortController;
  beforeEach(async () => {
    await t.sandbox.control.reset();
    abort = new AbortController();
  });
  afterEach(() => abort.abort());

  /** When each `changed` frame of the last stream opened arrived (performance.now). */
  let arrivals: number[] = [];

  /** Opens the stream with a key and collects its frames. */
  async function listen(key = KEY): Promise<EventSourceMessage[]> {
    const frames: EventSourceMessage[] = [];
    arrivals = [];
    const parser = createParser({
      onEvent(frame) {
        frames.push(frame);
        if (frame.event === "changed") arrivals.push(performance.now());
      },
    });
    const res = await fetch(`${t.sandbox.baseUrl}/sandbox/v1/activity/stream`, {
      headers: { authorization: `Bearer ${key}` },
      signal: abort.signal,
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    void (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
          parser.feed(decoder.decode(chunk, { stream: true }));
      } catch {
        // aborted
      }
    })();
    return frames;
  }

  const send = (text: string) => t.api("POST", "/v1/messages", { body: { from_handle: MAIN, to: IPHONE, text } });

  it("says `changed` with the clock when a send is accepted, though a queued message fires no event", async () => {
    const frames = await listen();
    await send("hello");
    await vi.waitFor(() => expect(frames.map((f) => f.event)).toContain("changed"));
    const clock = (await t.api("GET", "/sandbox/v1/clock")).body.data;
    expect(JSON.parse(frames.find((f) => f.event === "changed")?.data ?? "{}")).toEqual({ clock });
    expect(frames.filter((f) => f.event === "event")).toEqual([]);
  });

  it("says `changed` when the clock moves with nothing due", async () => {
    const frames = await listen();
    await t.api("POST", "/sandbox/v1/clock/advance", { body: { duration: "1h" } });
    const clock = (await t.api("GET", "/sandbox/v1/clock")).body.data;
    // A commit of earlier bookkeeping may say `changed` first; the advance's own frame follows.
    await vi.waitFor(() => {
      const last = JSON.parse(frames.filter((f) => f.event === "changed").at(-1)?.data ?? "{}");
      expect(last.clock).toEqual(clock);
    });
  });

  it("sends the account's events as `event` frames (id: seq), and no other account's", async () => {
    const frames = await listen();
    const sent = (await send("to be read")).body.data;
    await t.api("POST", "/v1/messages", {
      body: { from_handle: "+14155550104", to: IPHONE, text: "Globex" },
      key: OTHER_KEY,
    });
    await t.advance(3_000);
    await vi.waitFor(() => expect(frames.filter((f) => f.event === "event")).toHaveLength(3));
    const events = frames.filter((f) => f.event === "event");
    expect(events.map((f) => JSON.parse(f.data).type)).toEqual(["message.sent", "message.delivered", "message.read"]);
    expect(
      events.every((f) => JSON.parse(f.data).payload.message_id === sent.id && f.id === String(JSON.parse(f.data).seq)),
    ).toBe(true);
  });

  it("coalesces a burst of writes: at most one `changed` frame per 50 ms, and one after the last write", async () => {
    const frames = await listen();
    const firstWrite = performance.now();
    await Promise.all(Array.from({ length: 100 }, (_, i) => send(`burst ${i}`)));
    const lastWrite = performance.now();
    await vi.waitFor(() => expect(arrivals.at(-1) ?? 0).toBeGreaterThan(lastWrite));
    // Counted over the whole burst rather than gap by gap: a frame held up on the way arrives
    // close to the next one, but never are there more than one per 50 ms of writing.
    const span = (arrivals.at(-1) as number) - firstWrite;
    expect(arrivals.length).toBeLessThanOrEqual(Math.ceil(span / 50) + 1);
    expect(arrivals.length).toBeLessThan(100);
    expect(frames.filter((f) => f.event === "changed").length).toBe(arrivals.length);
  });

  it("is refused without a key", async () => {
    expect((await t.api("GET", "/sandbox/v1/activity/stream", { key: null })).status).toBe(401);
  });
});

describe("control API: a thread's reactions, one event", () => {
  const t = useSandbox({ fixture });
  beforeEach(() => t.sandbox.control.reset());

  async function deliveredMessage() {
    const sent = (await t.api("POST", "/v1/messages", { body: { from_handle: MAIN, to: IPHONE, text: "react to me" } }))
      .body.data;
    await t.advance(1_000);
    return sent as { id: string; conversation_id: string };
  }
  const reactions = async (conversationId: string) =>
    (await t.api("GET", `/sandbox/v1/reactions?conversation_id=${conversationId}`)).body.data;

  it("lists the contact's reactions, a removal taking one away", async () => {
    const message = await deliveredMessage();
    for (const body of [{ reaction: "love" }, { reaction: "like" }, { reaction: "love", remove: true }]) {
      expect(
        (
          await t.api("POST", "/sandbox/v1/simulate/reaction", {
            body: { message_id: message.id, from: IPHONE, ...body },
          })
        ).status,
      ).toBe(200);
    }
    expect(await reactions(message.conversation_id)).toEqual([
      { message_id: message.id, from: IPHONE, side: "contact", reaction: "like", at: expect.any(String) },
    ]);
  });

  it("lists the account's own reactions once they landed (after the send latency)", async () => {
    const message = await deliveredMessage();
    await t.api("POST", `/v1/messages/${message.id}/react`, { body: { reaction: "👍" } });
    expect(await reactions(message.conversation_id)).toEqual([]);
    await t.advance(200);
    expect(await reactions(message.conversation_id)).toEqual([
      { message_id: message.id, from: MAIN, side: "account", reaction: "👍", at: expect.any(String) },
    ]);
  });

  it("needs the account's conversation_id: 400 naming it", async () => {
    for (const query of [
      "",
      "?conversation_id=nope",
      `?conversation_id=${"0".repeat(8)}-0000-0000-0000-000000000000`,
    ]) {
      const res = await t.api("GET", `/sandbox/v1/reactions${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringContaining("conversation_id") });
    }
    const message = await deliveredMessage();
    expect(
      (await t.api("GET", `/sandbox/v1/reactions?conversation_id=${message.conversation_id}`, { key: OTHER_KEY }))
        .status,
    ).toBe(400);
  });

  it("answers one event by id: the account's, else 404", async () => {
    await deliveredMessage();
    const [event] = (await t.api("GET", "/sandbox/v1/events?limit=1")).body.data;
    expect((await t.api("GET", `/sandbox/v1/events/${event.id}`)).body.data).toEqual(event);
    expect((await t.api("GET", `/sandbox/v1/events/${event.id}`, { key: OTHER_KEY })).status).toBe(404);
    expect((await t.api("GET", "/sandbox/v1/events/nope")).body).toMatchObject({ error: "not_found" });
  });
});
