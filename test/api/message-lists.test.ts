import { describe, expect, it } from "vitest";
import { inbound, IPHONE, MAIN, resetBeforeEach, SALES, send } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/** Walks every page of a list with `before`, returning the ids in order. */
async function walk(t: TestSandbox, path: string, limit: number, cursorField: string): Promise<string[]> {
  const ids: string[] = [];
  let before: string | undefined;
  for (;;) {
    const separator = path.includes("?") ? "&" : "?";
    const res = await t.api(
      "GET",
      `${path}${separator}limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ""}`,
    );
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((item: any) => item.id));
    if (!res.body.has_more) return ids;
    before = res.body.data.at(-1)[cursorField];
  }
}

describe("GET /v1/messages (spec 4.3): newest first, paged with before, no skips", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("pages through 150 messages created in the same virtual millisecond without skipping or repeating", async () => {
    const created: string[] = [];
    for (let i = 0; i < 150; i++) created.push((await send(t, { text: `#${i}` })).id);
    const seen = await walk(t, "/v1/messages", 7, "created_at");
    expect(seen).toEqual([...created].reverse());
    const createdAts = new Set((await t.api("GET", "/v1/messages?limit=100")).body.data.map((m: any) => m.created_at));
    expect(createdAts.size).toBe(100);
  });

  it("defaults to 50 and says has_more", async () => {
    for (let i = 0; i < 51; i++) await send(t, {});
    const res = await t.api("GET", "/v1/messages");
    expect(res.body.data).toHaveLength(50);
    expect(res.body.has_more).toBe(true);
  });

  it("filters by conversation_id", async () => {
    const a = await send(t, { to: IPHONE });
    await send(t, { to: "+14155550150" });
    const b = await send(t, { to: IPHONE });
    const res = await t.api("GET", `/v1/messages?conversation_id=${a.conversation_id}`);
    expect(res.body.data.map((m: any) => m.id)).toEqual([b.id, a.id]);
    expect(res.body.has_more).toBe(false);
  });

  it("lists inbound and outbound messages together", async () => {
    const out = await send(t, {});
    const received = await inbound(t, {});
    const res = await t.api("GET", `/v1/messages?conversation_id=${out.conversation_id}`);
    expect(res.body.data.map((m: any) => [m.id, m.direction])).toEqual([
      [received.id, "inbound"],
      [out.id, "outbound"],
    ]);
  });

  it.each([
    ["limit=0", /^limit: /],
    ["limit=101", /^limit: /],
    ["limit=abc", /^limit: /],
    ["limit=1.5", /^limit: /],
    ["limit=1e1", /^limit: must be a whole number/],
    ["limit=0x10", /^limit: must be a whole number/],
    ["limit=%2B5", /^limit: must be a whole number/],
    ["limit=", /^limit: must be a whole number/],
    ["before=yesterday", /^before: /],
    ["before=2026-02-30T00:00:00.000Z", /^before: /],
    ["before=2026-01-01T24:00:00.000Z", /^before: /],
    ["conversation_id=nope", /^conversation_id: /],
    ["conversation_id=7d0c8a3e-1111-4111-8111-111111111111", /^conversation_id: no conversation/],
  ])("refuses %s with 400 invalid_request naming the parameter", async (query, message) => {
    const res = await t.api("GET", `/v1/messages?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
  });
});

describe("GET /v1/messages before a timestamp with an offset", () => {
  const t = useSandbox();

  it("takes +hh:mm, escaped or not (an unescaped + arrives as a space)", async () => {
    for (const before of [
      "2030-01-01T05:00:00.000%2B05:00",
      "2030-01-01T05:00:00.000+05:00",
      "2030-01-01T00:00:00.000-00:00",
    ]) {
      expect((await t.api("GET", `/v1/messages?before=${before}`)).status, before).toBe(200);
    }
  });
});

describe("GET /v1/messages/:id", () => {
  const t = useSandbox();

  it("answers the Message", async () => {
    const sent = await send(t, {});
    expect((await t.api("GET", `/v1/messages/${sent.id}`)).body.data).toEqual(sent);
    expect((await t.api("GET", `/v1/messages/${sent.id.toUpperCase()}`)).body.data.id).toBe(sent.id);
  });

  it.each(["nope", "7d0c8a3e-1111-4111-8111-111111111111", "7d0c8a3e"])("answers 404 not_found for %s", async (id) => {
    const res = await t.api("GET", `/v1/messages/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });
});

describe("GET /v1/chats (spec 4.5): one-to-one threads, newest activity first", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("creates a thread on the first message in either direction", async () => {
    const outbound = await send(t, { to: IPHONE });
    const received = await inbound(t, { from: "+14155550150", to: MAIN });
    const chats = (await t.api("GET", "/v1/chats")).body.data;
    expect(chats.map((c: any) => c.id)).toEqual([received.conversation_id, outbound.conversation_id]);
    expect(chats[0]).toEqual({
      id: received.conversation_id,
      from_handle: MAIN,
      remote_handle: "+14155550150",
      is_group: false,
      title: null,
      participants: ["+14155550150"],
      last_message_at: received.created_at,
      created_at: received.created_at,
      updated_at: received.created_at,
    });
  });

  it("moves a thread to the top when it gets a message; last_message_at is that message's created_at", async () => {
    const first = await send(t, { to: IPHONE });
    await send(t, { to: "+14155550150" });
    const latest = await send(t, { to: IPHONE });
    const chats = (await t.api("GET", "/v1/chats")).body.data;
    expect(chats[0]).toMatchObject({ id: first.conversation_id, last_message_at: latest.created_at });
  });

  it("keeps one thread per number: the same contact on two numbers has two", async () => {
    const a = await send(t, { from_handle: MAIN });
    const b = await send(t, { from_handle: SALES });
    expect(a.conversation_id).not.toBe(b.conversation_id);
  });

  it("pages on last_message_at without skips", async () => {
    const threads: string[] = [];
    for (let i = 0; i < 30; i++) threads.push((await send(t, { to: `+14155550${String(120 + i)}` })).conversation_id);
    expect(await walk(t, "/v1/chats", 4, "last_message_at")).toEqual([...threads].reverse());
  });

  it("answers one chat by id, 404 for a malformed or unknown id", async () => {
    const sent = await send(t, {});
    expect((await t.api("GET", `/v1/chats/${sent.conversation_id}`)).body.data.id).toBe(sent.conversation_id);
    expect((await t.api("GET", "/v1/chats/nope")).status).toBe(404);
    expect((await t.api("GET", "/v1/chats/7d0c8a3e-1111-4111-8111-111111111111")).status).toBe(404);
  });

  it.each(["limit=0", "limit=101", "before=soon"])("refuses %s with 400", async (query) => {
    expect((await t.api("GET", `/v1/chats?${query}`)).status).toBe(400);
  });
});
