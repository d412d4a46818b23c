import { describe, expect, it } from "vitest";
import { ALICE, allChats, BOB, chat, createGroup, expectError, groupInbound } from "../helpers/groups.js";
import {
  ANDROID,
  events,
  inbound,
  IPHONE,
  MAGIC,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  SUPPORT,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("existing groups (spec 4.5): they appear once a message arrives", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("appears in GET /v1/chats with is_group: true when a contact starts a group (simulate inbound --members)", async () => {
    expect(await allChats(t)).toEqual([]);
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [ALICE, BOB], text: "hi all" });
    expect(received).toMatchObject({
      direction: "inbound",
      status: "delivered",
      channel: "imessage",
      text: "hi all",
      metadata: { sender_handle: IPHONE },
    });
    expect(await allChats(t)).toEqual([
      {
        id: received.conversation_id,
        from_handle: MAIN,
        remote_handle: null,
        is_group: true,
        title: null,
        participants: [IPHONE, ALICE, BOB],
        last_message_at: received.created_at,
        created_at: received.created_at,
        updated_at: received.created_at,
      },
    ]);
  });

  it("fires message.received with is_group: true, from the individual sender and metadata.sender_handle", async () => {
    const received = await groupInbound(t, { from: ALICE, members: [IPHONE] });
    expect(await events(t, received.id)).toEqual([
      {
        type: "message.received",
        conversation_id: received.conversation_id,
        message_id: received.id,
        from: ALICE,
        to: MAIN,
        text: "hi all",
        channel: "imessage",
        has_attachments: false,
        created_at: received.created_at,
        is_group: true,
        metadata: { sender_handle: ALICE },
      },
    ]);
  });

  it("takes later messages into the same group with --group, from any member", async () => {
    const first = await groupInbound(t, { from: IPHONE, members: [ALICE] });
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: ALICE, group: first.conversation_id, text: "me too" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ conversation_id: first.conversation_id, metadata: { sender_handle: ALICE } });
    expect((await chat(t, first.conversation_id)).last_message_at).toBe(res.body.data.created_at);
    expect(await allChats(t)).toHaveLength(1);
  });

  it("can be replied to with conversation_id", async () => {
    const received = await groupInbound(t, { members: [ALICE] });
    const sent = await send(t, { to: undefined, from_handle: undefined, conversation_id: received.conversation_id });
    await t.advance(3_000);
    expect(await message(t, sent.id)).toMatchObject({
      status: "read",
      channel: "imessage",
      conversation_id: received.conversation_id,
    });
  });

  it("keeps one-to-one threads apart from the group", async () => {
    const group = await groupInbound(t, { from: IPHONE, members: [ALICE] });
    const direct = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: IPHONE, to: MAIN, text: "just you" },
    });
    expect(direct.body.data.conversation_id).not.toBe(group.conversation_id);
  });

  it.each([
    [{ members: [ALICE], group: "x" }, /^group: give members/],
    [{ members: [] }, /^members: /],
    [{ members: [ALICE, ALICE] }, /^members\.1: \+14155550150 is listed twice/],
    [{ members: [MAIN] }, /^members\.0: \+14155550101 is listed twice/],
    [{ members: ["+15555550100"] }, /^members\.0: /],
    [
      { members: Array.from({ length: 31 }, (_, i) => `+14155550${120 + i}`) },
      /^members: a group has at most 32 members/,
    ],
    [{ from: SALES, members: [ALICE] }, /^from: \+14155550103 is one of the account's numbers/],
    [{ to: undefined, members: [ALICE] }, /^to: required/],
    [{ group: "7d0c8a3e-1111-4111-8111-111111111111", members: undefined }, /^group: no conversation/],
    [{ members: [ALICE], channel: "imessage", from: ANDROID }, /^from: \+14155550192 is not registered with iMessage/],
    [{ members: ["friend@example.com"], channel: "sms" }, /^members\.0: friend@example.com is an iMessage address/],
    [{ to: SUPPORT, members: [MAGIC.noWhatsApp] }, /^members\.0: \+14155550174 is not on WhatsApp/],
  ])("refuses %j with 400 invalid_request naming the field", async (body, pattern) => {
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: IPHONE, to: MAIN, text: "x", ...body },
    });
    expect(expectError(res, 400, "invalid_request")).toMatch(pattern);
    expect(await allChats(t)).toEqual([]);
  });

  it("refuses --group from someone who is not a member, and --group on a one-to-one thread", async () => {
    const group = await groupInbound(t, { members: [ALICE] });
    const stranger = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: BOB, group: group.conversation_id, text: "x" },
    });
    expect(expectError(stranger, 400, "invalid_request")).toMatch(/^from: \+14155550151 is not a member/);
    const direct = await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: IPHONE, to: MAIN, text: "x" } });
    const wrong = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: IPHONE, group: direct.body.data.conversation_id, text: "x" },
    });
    expect(expectError(wrong, 400, "invalid_request")).toMatch(/^group: .* is a one-to-one thread/);
  });
});

describe("GET /v1/chats (spec 4.5): groups and one-to-one threads in one list, newest activity first", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  /** Every chat id, walking pages of `limit` with the oldest last_message_at as `before`. */
  async function walk(limit: number): Promise<string[]> {
    const ids: string[] = [];
    let before = "";
    for (;;) {
      const res = await t.api(
        "GET",
        `/v1/chats?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ""}`,
      );
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((c: any) => c.id));
      if (!res.body.has_more) return ids;
      before = res.body.data.at(-1).last_message_at;
    }
  }

  it("pages created groups, contacts' groups (one chat per member number) and one-to-one threads on last_message_at without skips", async () => {
    const direct = await inbound(t, { from: IPHONE, to: MAIN });
    const created = await createGroup(t);
    const started = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES, ALICE] });
    const other = await send(t, { to: BOB });
    // A new message moves the created group to the top.
    const followUp = await send(t, { to: undefined, from_handle: undefined, conversation_id: created.id });
    const salesCopy = (await allChats(t)).find((c) => c.from_handle === SALES);
    const expected = [created.id, other.conversation_id, salesCopy.id, started.conversation_id, direct.conversation_id];
    expect(await walk(2)).toEqual(expected);
    expect(await walk(100)).toEqual(expected);
    expect((await chat(t, created.id)).last_message_at).toBe(followUp.created_at);
  });

  it("defaults to 50 chats and says has_more", async () => {
    for (let i = 0; i < 50; i++) await inbound(t, { from: `+14155550${String(100 + i)}`, to: MAIN });
    await groupInbound(t, { from: IPHONE, members: [ALICE] });
    const first = await t.api("GET", "/v1/chats");
    expect(first.body.data).toHaveLength(50);
    expect(first.body.has_more).toBe(true);
    expect(first.body.data[0].is_group).toBe(true);
    const rest = await t.api("GET", `/v1/chats?before=${encodeURIComponent(first.body.data.at(-1).last_message_at)}`);
    expect(rest.body).toMatchObject({
      has_more: false,
      data: [expect.objectContaining({ remote_handle: "+14155550100" })],
    });
  });
});

describe("group MMS threads (spec 4.5): any non-iMessage member makes one for all", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("goes by SMS for everyone when one member is not on iMessage", async () => {
    const received = await groupInbound(t, { from: IPHONE, members: [ALICE, ANDROID] });
    expect(received.channel).toBe("sms");
    const sent = await send(t, { to: undefined, from_handle: undefined, conversation_id: received.conversation_id });
    await t.advance(700);
    expect(await message(t, sent.id)).toMatchObject({ status: "delivered", channel: "sms" });
  });

  it("cannot be renamed or have members changed (409 invalid_state), nor be read or typed in", async () => {
    const { conversation_id: id } = await groupInbound(t, { members: [ANDROID] });
    expectError(await t.api("PATCH", `/v1/chats/${id}`, { body: { title: "x" } }), 409, "invalid_state");
    expectError(await t.api("POST", `/v1/chats/${id}/participants`, { body: { handle: ALICE } }), 409, "invalid_state");
    expectError(
      await t.api("DELETE", `/v1/chats/${id}/participants/${encodeURIComponent(ANDROID)}`),
      409,
      "invalid_state",
    );
    expectError(await t.api("POST", `/v1/chats/${id}/read`), 409, "invalid_state");
    expectError(await t.api("POST", `/v1/chats/${id}/typing`, { body: { typing: true } }), 409, "invalid_state");
    expect((await chat(t, id)).participants).toEqual([IPHONE, ANDROID]);
  });

  it("has no reactions (SMS): 409 invalid_state", async () => {
    const received = await groupInbound(t, { members: [ANDROID] });
    const sent = await send(t, { to: undefined, from_handle: undefined, conversation_id: received.conversation_id });
    await t.advance(700);
    expectError(
      await t.api("POST", `/v1/messages/${sent.id}/react`, { body: { reaction: "like" } }),
      409,
      "invalid_state",
    );
  });

  it("is also what --channel sms makes, even among iPhones", async () => {
    expect((await groupInbound(t, { members: [ALICE], channel: "sms" })).channel).toBe("sms");
  });
});

describe("WhatsApp groups (spec 4.5)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("arrive on a linked number, and can be sent to and reacted in", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: SALES, members: [ALICE], channel: "whatsapp" });
    expect(received).toMatchObject({ channel: "whatsapp", metadata: { sender_jid: "14155550191@s.whatsapp.net" } });
    expect(await chat(t, received.conversation_id)).toMatchObject({ is_group: true, participants: [IPHONE, ALICE] });
    const sent = await send(t, { to: undefined, from_handle: undefined, conversation_id: received.conversation_id });
    await t.advance(700);
    expect(await message(t, sent.id)).toMatchObject({
      status: "delivered",
      channel: "whatsapp",
      metadata: { sender_jid: "14155550103@s.whatsapp.net" },
    });
    expect((await t.api("POST", `/v1/messages/${sent.id}/react`, { body: { reaction: "👍" } })).status).toBe(200);
    expect((await t.api("POST", `/v1/messages/${received.id}/react`, { body: { reaction: "like" } })).status).toBe(200);
  });

  it("cannot be renamed or have members changed through the API: 409 not_a_group", async () => {
    const { conversation_id: id } = await groupInbound(t, { to: SALES, members: [ALICE], channel: "whatsapp" });
    expectError(await t.api("PATCH", `/v1/chats/${id}`, { body: { title: "x" } }), 409, "not_a_group");
    expectError(await t.api("POST", `/v1/chats/${id}/participants`, { body: { handle: BOB } }), 409, "not_a_group");
    expectError(await t.api("DELETE", `/v1/chats/${id}/participants/${encodeURIComponent(ALICE)}`), 409, "not_a_group");
    expect(await chat(t, id)).toMatchObject({ title: null, participants: [IPHONE, ALICE] });
  });

  it("arrive on a WhatsApp Cloud API number, but a send into one from it is 400 unsupported", async () => {
    const received = await groupInbound(t, { to: SUPPORT, members: [ALICE] });
    expect(received.channel).toBe("whatsapp");
    const res = await t.api("POST", "/v1/messages", { body: { conversation_id: received.conversation_id, text: "x" } });
    expect(expectError(res, 400, "unsupported")).toMatch(/WhatsApp Cloud API/);
    expect((await t.api("GET", "/v1/messages")).body.data).toHaveLength(1);
  });

  it("refuses channel: whatsapp into an iMessage group, and an effect into a WhatsApp one", async () => {
    const imessage = await groupInbound(t, { members: [ALICE] });
    const whatsapp = await groupInbound(t, { to: SALES, members: [ALICE], channel: "whatsapp" });
    expectError(
      await t.api("POST", "/v1/messages", {
        body: { conversation_id: imessage.conversation_id, text: "x", channel: "whatsapp" },
      }),
      400,
      "invalid_request",
    );
    expectError(
      await t.api("POST", "/v1/messages", {
        body: { conversation_id: whatsapp.conversation_id, text: "x", effect: "slam" },
      }),
      400,
      "invalid_request",
    );
  });
});

describe("one-to-one threads are not groups (spec 4.5): 409 not_a_group", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("refuses rename and participant changes on a one-to-one thread", async () => {
    const { conversation_id: id } = await send(t, {});
    expectError(await t.api("PATCH", `/v1/chats/${id}`, { body: { title: "x" } }), 409, "not_a_group");
    expectError(await t.api("POST", `/v1/chats/${id}/participants`, { body: { handle: ALICE } }), 409, "not_a_group");
    expectError(
      await t.api("DELETE", `/v1/chats/${id}/participants/${encodeURIComponent(IPHONE)}`),
      409,
      "not_a_group",
    );
    expect(await chat(t, id)).toMatchObject({ is_group: false, title: null, participants: [IPHONE] });
  });
});
