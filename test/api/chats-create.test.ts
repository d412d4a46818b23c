import { describe, expect, it } from "vitest";
import { ALICE, allChats, BOB, CAROL, chat, createGroup, expectError, NAMING_FAILS } from "../helpers/groups.js";
import {
  events,
  fault,
  IPHONE,
  MAGIC,
  MAIN,
  resetBeforeEach,
  SALES,
  setContact,
  SUPPORT,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

const addresses = (n: number) => Array.from({ length: n }, (_, i) => `+14155550${String(120 + i)}`);

describe("POST /v1/chats (spec 4.5): starting an iMessage group", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 201 with the group: is_group, title, participants in the order given", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, "friend@example.com"], title: "Book club" });
    expect(group).toEqual({
      id: expect.any(String),
      from_handle: MAIN,
      remote_handle: null,
      is_group: true,
      title: "Book club",
      participants: [ALICE, BOB, "friend@example.com"],
      last_message_at: group.created_at,
      created_at: expect.any(String),
      updated_at: group.created_at,
    });
    expect(await chat(t, group.id)).toEqual(group);
    expect(await allChats(t)).toEqual([group]);
  });

  it("leaves title null when none is given", async () => {
    expect((await createGroup(t)).title).toBeNull();
  });

  it("delivers the opening message but records none: absent from GET /v1/messages, no message events", async () => {
    const group = await createGroup(t, { message: "Welcome to the group" });
    await t.advance(10_000);
    expect((await t.api("GET", "/v1/messages")).body.data).toEqual([]);
    expect((await t.api("GET", `/v1/messages?conversation_id=${group.id}`)).body.data).toEqual([]);
    expect(await events(t)).toEqual([]);
  });

  it("tracks follow-ups with conversation_id normally", async () => {
    const group = await createGroup(t);
    const sent = await t.api("POST", "/v1/messages", { body: { conversation_id: group.id, text: "First follow-up" } });
    expect(sent.status).toBe(202);
    expect((await t.api("GET", "/v1/messages")).body.data.map((m: any) => m.id)).toEqual([sent.body.data.id]);
    expect((await chat(t, group.id)).last_message_at).toBe(sent.body.data.created_at);
  });

  it("creates the group with an unreachable address; messages never reach that member", async () => {
    const group = await createGroup(t, { addresses: [ALICE, MAGIC.unreachable] });
    expect(group.participants).toEqual([ALICE, MAGIC.unreachable]);
    const sent = (await t.api("POST", "/v1/messages", { body: { conversation_id: group.id, text: "hi" } })).body.data;
    await t.advance(10_000);
    const message = (await t.api("GET", `/v1/messages/${sent.id}`)).body.data;
    expect(message.recipients).toEqual([
      { handle: ALICE, delivered_at: expect.any(String), read_at: expect.any(String) },
      { handle: MAGIC.unreachable, delivered_at: null, read_at: null },
    ]);
  });

  it("gives another of the account's numbers among the addresses its own conversation of the group", async () => {
    const group = await createGroup(t, { addresses: [ALICE, SALES], title: "Team" });
    const chats = await allChats(t);
    expect(chats).toHaveLength(2);
    const sales = chats.find((c) => c.from_handle === SALES);
    expect(sales).toMatchObject({ is_group: true, title: "Team", participants: [MAIN, ALICE] });
    expect(sales.id).not.toBe(group.id);
    expect(await events(t)).toEqual([]);
  });

  it("refuses a number that is offline: the group is made by sending its opening message (409 invalid_state)", async () => {
    await fault(t, MAIN, { fault: "offline" });
    expectError(
      await t.api("POST", "/v1/chats", { body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "x" } }),
      409,
      "invalid_state",
    );
    expect(await allChats(t)).toEqual([]);
  });
});

describe("POST /v1/chats: naming is best effort (spec 4.5)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("creates the group with title null when naming fails (a member is the magic number +1 415 555 0176)", async () => {
    const group = await createGroup(t, { addresses: [ALICE, NAMING_FAILS], title: "Will not stick" });
    expect(group).toMatchObject({ is_group: true, title: null, participants: [ALICE, NAMING_FAILS] });
  });

  it("names the group once it is created (PATCH): naming failed only at creation", async () => {
    const group = await createGroup(t, { addresses: [ALICE, NAMING_FAILS], title: "Will not stick" });
    const renamed = await t.api("PATCH", `/v1/chats/${group.id}`, { body: { title: "Now it sticks" } });
    expect(renamed.body.data.title).toBe("Now it sticks");
  });
});

describe("POST /v1/chats: limits (spec 8)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it.each([2, 31])("accepts %i addresses", async (n) => {
    const group = await createGroup(t, { addresses: addresses(n) });
    expect(group.participants).toHaveLength(n);
  });

  it.each([0, 1, 32])("refuses %i addresses with 400 invalid_request naming addresses, creating nothing", async (n) => {
    const message = expectError(
      await t.api("POST", "/v1/chats", { body: { from_handle: MAIN, addresses: addresses(n), message: "x" } }),
      400,
      "invalid_request",
    );
    expect(message).toBe("addresses: must list 2 to 31 recipients");
    expect(await allChats(t)).toEqual([]);
  });

  it("accepts a title of 100 characters, emoji counted as one each", async () => {
    expect((await createGroup(t, { title: "a".repeat(100) })).title).toHaveLength(100);
    expect((await createGroup(t, { title: "👨‍👩‍👧".repeat(100) })).title).toBe("👨‍👩‍👧".repeat(100));
  });

  it.each([["a".repeat(101)], ["👍".repeat(101)], ["a".repeat(5_000)]])(
    "refuses a title over 100 characters",
    async (title) => {
      const message = expectError(
        await t.api("POST", "/v1/chats", { body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "x", title } }),
        400,
        "invalid_request",
      );
      expect(message).toBe("title: must be at most 100 characters");
      expect(await allChats(t)).toEqual([]);
    },
  );
});

describe("POST /v1/chats: refusals change nothing (docs/conversations.md)", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  const create = (body: Record<string, unknown>) =>
    t.api("POST", "/v1/chats", { body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "x", ...body } });

  it("refuses a WhatsApp number as from_handle with 400 invalid_from_handle", async () => {
    expect(expectError(await create({ from_handle: SUPPORT }), 400, "invalid_from_handle")).toMatch(
      /^from_handle: \+14155550102 is a WhatsApp number/,
    );
  });

  it("refuses a from_handle that is not one of the account's numbers with 400 invalid_from_handle", async () => {
    expectError(await create({ from_handle: "+14155550199" }), 400, "invalid_from_handle");
    expectError(await create({ from_handle: "not a number" }), 400, "invalid_from_handle");
  });

  it("refuses a non-iMessage address with 400 invalid_request whose message names that address", async () => {
    const message = expectError(await create({ addresses: [ALICE, MAGIC.noIMessage] }), 400, "invalid_request");
    expect(message).toMatch(/^addresses\.1: \+14155550173 is not registered with iMessage/);
    await setContact(t, CAROL, { platform: "android" });
    expect(expectError(await create({ addresses: [CAROL, ALICE] }), 400, "invalid_request")).toContain(CAROL);
  });

  it("refuses one of the account's WhatsApp-only numbers as an address (it is not on iMessage)", async () => {
    expect(expectError(await create({ addresses: [ALICE, SUPPORT] }), 400, "invalid_request")).toContain(SUPPORT);
  });

  it.each([
    [{ addresses: [ALICE, "+15555550100"] }, /^addresses\.1: "\+15555550100" is not a valid/],
    [{ addresses: [ALICE, ALICE] }, /^addresses\.1: \+14155550150 is listed twice/],
    [{ addresses: [ALICE, MAIN] }, /^addresses\.1: \+14155550101 is from_handle itself/],
    [{ addresses: [ALICE, 42] }, /^addresses\.1: /],
    [{ addresses: "+14155550150" }, /^addresses: /],
    [{ message: undefined }, /^message: /],
    [{ message: "" }, /^message: must not be empty/],
    [{ title: "" }, /^title: must not be empty/],
    [{ title: "   " }, /^title: must not be blank/],
    [{ title: "\t\u200b" }, /^title: must not be blank/],
    [{ title: "a\u0000\u0007" }, /^title: must not contain control characters/],
    [{ title: 7 }, /^title: /],
    [{ from_handle: undefined }, /^from_handle: /],
    [{ colour: "blue" }, /colour/],
  ])("refuses %j with 400 invalid_request naming the field", async (body, pattern) => {
    expect(expectError(await create(body), 400, "invalid_request")).toMatch(pattern);
    expect(await allChats(t)).toEqual([]);
  });

  it("refuses a missing body with 400 invalid_request", async () => {
    expect(expectError(await t.api("POST", "/v1/chats"), 400, "invalid_request")).toMatch(/^body: required/);
  });
});

describe("POST /v1/chats: Idempotency-Key (spec 4.5, docs/conversations.md)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 201 first, then 200 with the original group, creating nothing again", async () => {
    const headers = { "idempotency-key": "group-1" };
    const first = await t.api("POST", "/v1/chats", {
      body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "x", title: "One" },
      headers,
    });
    expect(first.status).toBe(201);
    await t.api("PATCH", `/v1/chats/${first.body.data.id}`, { body: { title: "Renamed since" } });
    const replay = await t.api("POST", "/v1/chats", {
      body: { from_handle: MAIN, addresses: [CAROL, IPHONE], message: "y" },
      headers,
    });
    expect(replay.status).toBe(200);
    // The original group, as it is now.
    expect(replay.body.data).toMatchObject({
      id: first.body.data.id,
      title: "Renamed since",
      participants: [ALICE, BOB],
    });
    expect(await allChats(t)).toHaveLength(1);
  });

  it("treats different keys as different groups", async () => {
    const a = await createGroup(t, {}, { "idempotency-key": "a" });
    const b = await createGroup(t, {}, { "idempotency-key": "b" });
    expect(a.id).not.toBe(b.id);
  });

  it("scopes keys per endpoint: the same key on POST /v1/messages is another key", async () => {
    const headers = { "idempotency-key": "same" };
    const group = await createGroup(t, {}, headers);
    const sent = await t.api("POST", "/v1/messages", { body: { to: IPHONE, from_handle: MAIN, text: "x" }, headers });
    expect(sent.status).toBe(202);
    expect(sent.body.data.conversation_id).not.toBe(group.id);
  });

  it("creates one group for 10 concurrent identical requests", async () => {
    const headers = { "idempotency-key": "burst" };
    const body = { from_handle: MAIN, addresses: [ALICE, BOB], message: "x" };
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.api("POST", "/v1/chats", { body, headers })));
    expect(new Set(answers.map((answer) => answer.body.data.id)).size).toBe(1);
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(9).fill(200), 201]);
  });

  it("refuses an Idempotency-Key over 255 characters", async () => {
    const res = await t.api("POST", "/v1/chats", {
      body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "x" },
      headers: { "idempotency-key": "k".repeat(256) },
    });
    expect(expectError(res, 400, "invalid_request")).toMatch(/^Idempotency-Key: /);
  });
});

describe("POST /v1/chats: Idempotency-Key is scoped per account", () => {
  const fixture = {
    accounts: [
      {
        name: "Acme",
        api_key: "sk_test_acme_0000000000000000",
        numbers: [{ handle: MAIN, channels: ["imessage", "sms"], label: "main" }],
      },
      {
        name: "Beta",
        api_key: "sk_test_beta_0000000000000000",
        numbers: [{ handle: "+14155550111", channels: ["imessage"], label: "beta" }],
      },
    ],
  };
  const t = useSandbox({ fixture });

  it("lets two accounts use the same key", async () => {
    const headers = { "idempotency-key": "shared" };
    const mine = await t.api("POST", "/v1/chats", {
      body: { from_handle: MAIN, addresses: [ALICE, BOB], message: "x" },
      headers,
    });
    const theirs = await t.api("POST", "/v1/chats", {
      key: "sk_test_beta_0000000000000000",
      body: { from_handle: "+14155550111", addresses: [ALICE, BOB], message: "x" },
      headers,
    });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(mine.body.data.id).not.toBe(theirs.body.data.id);
    expect((await t.api("GET", `/v1/chats/${theirs.body.data.id}`)).status).toBe(404);
  });
});
