import { describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { emitEvent } from "../../src/domain/core/index.js";
import { id as ids, lifecycleFields } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("control API: clock (docs/sandbox.md)", () => {
  const t = useSandbox();

  it("shows the clock's time and mode", async () => {
    const res = await t.api("GET", "/sandbox/v1/clock");
    expect(res.body.data).toEqual({ now: expect.any(String), mode: "manual" });
  });

  it("advances by a duration or by milliseconds", async () => {
    const start = Date.parse((await t.api("GET", "/sandbox/v1/clock")).body.data.now);
    const byDuration = await t.api("POST", "/sandbox/v1/clock/advance", { body: { duration: "1h30m" } });
    expect(Date.parse(byDuration.body.data.now) - start).toBe(5_400_000);
    const byMs = await t.api("POST", "/sandbox/v1/clock/advance", { body: { ms: 500 } });
    expect(Date.parse(byMs.body.data.now) - start).toBe(5_400_500);
  });

  it.each([
    ["no body", undefined, /^body: /],
    ["neither field", {}, /^body: duration or ms is required/],
    ["a bad duration", { duration: "later" }, /^duration: /],
    ["negative ms", { ms: -1 }, /^ms: /],
    ["ms as a string", { ms: "5" }, /^ms: /],
    ["fractional ms", { ms: 1.5 }, /^ms: /],
    ["both fields", { duration: "1s", ms: 5 }, /^ms: give duration or ms, not both/],
    ["an unknown field", { seconds: 5 }, /seconds/],
  ])("refuses %s with 400 invalid_request naming the field, leaving the clock", async (_name, body, message) => {
    const before = (await t.api("GET", "/sandbox/v1/clock")).body.data.now;
    const res = await t.api("POST", "/sandbox/v1/clock/advance", { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.message).toMatch(message);
    expect((await t.api("GET", "/sandbox/v1/clock")).body.data.now).toBe(before);
  });

  it("is reachable on the OTP host too", async () => {
    expect((await t.otp("POST", "/sandbox/v1/clock/advance", { body: { duration: "1s" } })).status).toBe(200);
  });
});

describe("control API: a real clock cannot be advanced", () => {
  const t = useSandbox({ clock: "real" });

  it("answers 409 invalid_state", async () => {
    const res = await t.api("POST", "/sandbox/v1/clock/advance", { body: { duration: "1h" } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("invalid_state");
    expect((await t.api("GET", "/sandbox/v1/clock")).body.data.mode).toBe("real");
  });
});

describe("control API: events", () => {
  const t = useSandbox();
  const emit = (type: "message.sent" | "message.read", id: string) =>
    t.sandbox.ctx.db.transaction(() =>
      emitEvent(t.sandbox.ctx, allAccounts(t.sandbox.ctx)[0]!.id, type, lifecycleFields(type, { message_id: ids(id) })),
    );

  it("lists events after a sequence number, oldest first, with has_more", async () => {
    for (const id of ["a", "b", "c"]) emit("message.sent", id);
    const page1 = await t.api("GET", "/sandbox/v1/events?limit=2");
    expect(page1.body.data.map((e: any) => e.payload.message_id)).toEqual([ids("a"), ids("b")]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await t.api("GET", `/sandbox/v1/events?after=${page1.body.data[1].seq}`);
    expect(page2.body.data.map((e: any) => e.payload)).toEqual([
      { type: "message.sent", ...lifecycleFields("message.sent", { message_id: ids("c") }) },
    ]);
    expect(page2.body.has_more).toBe(false);
  });

  it("filters by type and refuses unknown event names", async () => {
    emit("message.read", "r");
    const read = await t.api("GET", "/sandbox/v1/events?types=message.read");
    expect(read.body.data.map((e: any) => e.type)).toEqual(["message.read"]);
    const bad = await t.api("GET", "/sandbox/v1/events?types=message.exploded");
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("message.exploded");
  });

  it("pages a filtered list by the events it keeps: limit and has_more count matching events only", async () => {
    // Earlier tests of this sandbox emitted events too: page after the newest of them.
    const start = (await t.api("GET", "/sandbox/v1/events?order=desc&limit=1")).body.data[0]?.seq ?? 0;
    for (const id of ["a", "b", "c"]) emit("message.sent", id);
    emit("message.read", "r1");
    for (const id of ["d", "e"]) emit("message.sent", id);
    emit("message.read", "r2");
    const first = await t.api("GET", `/sandbox/v1/events?types=message.read&limit=1&after=${start}`);
    expect(first.body.data.map((e: any) => e.payload.message_id)).toEqual([ids("r1")]);
    expect(first.body.has_more).toBe(true);
    const second = await t.api("GET", `/sandbox/v1/events?types=message.read&limit=1&after=${first.body.data[0].seq}`);
    expect(second.body.data.map((e: any) => e.payload.message_id)).toEqual([ids("r2")]);
    expect(second.body.has_more).toBe(false);
    const newest = await t.api("GET", `/sandbox/v1/events?types=message.read&limit=1&order=desc&after=${start}`);
    expect(newest.body.data.map((e: any) => e.payload.message_id)).toEqual([ids("r2")]);
    expect(newest.body.has_more).toBe(true);
  });

  it("refuses a limit outside 1-100", async () => {
    expect((await t.api("GET", "/sandbox/v1/events?limit=0")).status).toBe(400);
    expect((await t.api("GET", "/sandbox/v1/events?limit=101")).status).toBe(400);
    expect((await t.api("GET", "/sandbox/v1/events?limit=1e1")).body.message).toBe(
      "limit: must be a whole number from 1 to 100",
    );
    expect((await t.api("GET", "/sandbox/v1/events?after=0x10")).body.message).toBe("after: must be a whole number");
  });
});

describe("control API: the live event stream (server-sent events)", () => {
  const t = useSandbox({ socket: true });

  it("streams events as they are emitted, replaying after a known sequence number", async () => {
    const account = allAccounts(t.sandbox.ctx)[0]!.id;
    t.sandbox.ctx.db.transaction(() =>
      emitEvent(t.sandbox.ctx, account, "message.sent", lifecycleFields("message.sent", { message_id: ids("bef0") })),
    );
    const abort = new AbortController();
    const res = await fetch(`${t.sandbox.baseUrl}/sandbox/v1/events/stream?after=0&types=message.sent`, {
      headers: { authorization: "Bearer sk_test_acme_0000000000000000" },
      signal: abort.signal,
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) text += new TextDecoder().decode((await reader.read()).value);
    };
    await readUntil(`"${ids("bef0")}"`);
    t.sandbox.ctx.db.transaction(() => {
      emitEvent(t.sandbox.ctx, account, "message.read", lifecycleFields("message.read", { message_id: ids("f11e") }));
      emitEvent(t.sandbox.ctx, account, "message.sent", lifecycleFields("message.sent", { message_id: ids("11fe") }));
    });
    await readUntil(`"${ids("11fe")}"`);
    expect(text).toMatch(new RegExp(`id: \\d+\\nevent: message\\.sent\\ndata: \\{.*"message_id":"${ids("11fe")}"`));
    expect(text).not.toContain(ids("f11e"));
    abort.abort();
  });
});

describe("control API: HEAD on the event stream", () => {
  const t = useSandbox({ socket: true });

  it("answers the stream's status and headers, ends at once and leaves no subscriber behind", async () => {
    expect(t.sandbox.ctx.bus.has("event")).toBe(false);
    const res = await fetch(`${t.sandbox.baseUrl}/sandbox/v1/events/stream`, {
      method: "HEAD",
      headers: { authorization: "Bearer sk_test_acme_0000000000000000" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(await res.text()).toBe("");
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.sandbox.ctx.bus.has("event")).toBe(false);
  });
});

describe("control API: reset", () => {
  const t = useSandbox();

  it("wipes state and re-seeds from the fixture, returning the accounts", async () => {
    const account = allAccounts(t.sandbox.ctx)[0]!.id;
    t.sandbox.ctx.db.transaction(() =>
      emitEvent(t.sandbox.ctx, account, "message.sent", lifecycleFields("message.sent")),
    );
    const res = await t.api("POST", "/sandbox/v1/reset");
    expect(res.status).toBe(200);
    expect(res.body.data.accounts[0]).toMatchObject({ name: "Acme", api_key: "sk_test_acme_0000000000000000" });
    expect((await t.api("GET", "/sandbox/v1/events")).body.data).toEqual([]);
    expect((await t.api("GET", "/v1/numbers")).body.data).toHaveLength(3);
  });

  it("re-seeds from a fixture in the body, and refuses a bad one without wiping anything", async () => {
    const bad = await t.api("POST", "/sandbox/v1/reset", { body: { fixture: { accounts: [] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("fixture: accounts: must list at least one account");
    expect((await t.api("GET", "/v1/numbers")).status).toBe(200);
    const fixture = {
      accounts: [
        {
          name: "Acme",
          api_key: "sk_test_acme_0000000000000000",
          numbers: [{ handle: "+14155550150", channels: ["sms"] }],
        },
      ],
    };
    const res = await t.api("POST", "/sandbox/v1/reset", { body: { fixture } });
    expect(res.status).toBe(200);
    expect((await t.api("GET", "/v1/numbers")).body.data.map((n: any) => n.handle)).toEqual(["+14155550150"]);
  });
});
