import { describe, expect, it } from "vitest";
import { ALICE, allChats, BOB, createGroup, expectError, groupInbound } from "../helpers/groups.js";
import {
  events,
  eventTypes,
  IPHONE,
  MAGIC,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  setContact,
  statusOf,
} from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

const sendInto = async (t: TestSandbox, conversationId: string, body: Record<string, unknown> = {}) => {
  const res = await t.api("POST", "/v1/messages", {
    body: { conversation_id: conversationId, text: "to the group", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data;
};

describe("a group message (spec 4.5): delivered and read per member", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("is queued, names its sender in metadata and lists no receipts until it leaves", async () => {
    const group = await createGroup(t);
    const sent = await sendInto(t, group.id);
    expect(sent).toMatchObject({
      conversation_id: group.id,
      direction: "outbound",
      status: "queued",
      channel: null,
      metadata: { sender_handle: MAIN },
      recipients: [],
    });
  });

  it("goes sent at 200 ms to every member, delivered at 700 ms when members acknowledge, read at 2.7 s when one reads", async () => {
    const group = await createGroup(t, { addresses: [ALICE, MAGIC.noReadReceipts, MAGIC.unreachable] });
    const sent = await sendInto(t, group.id);
    await t.advance(200);
    expect(await message(t, sent.id)).toMatchObject({
      status: "sent",
      channel: "imessage",
      recipients: [
        { handle: ALICE, delivered_at: null, read_at: null },
        { handle: MAGIC.noReadReceipts, delivered_at: null, read_at: null },
        { handle: MAGIC.unreachable, delivered_at: null, read_at: null },
      ],
    });
    await t.advance(499);
    expect(await statusOf(t, sent.id)).toBe("sent");
    await t.advance(1);
    const delivered = await message(t, sent.id);
    expect(delivered.status).toBe("delivered");
    expect(delivered.recipients.map((r: any) => r.delivered_at)).toEqual([
      delivered.delivered_at,
      delivered.delivered_at,
      null,
    ]);
    await t.advance(2_000);
    const read = await message(t, sent.id);
    expect(read.status).toBe("read");
    expect(read.recipients).toEqual([
      { handle: ALICE, delivered_at: delivered.delivered_at, read_at: read.read_at },
      { handle: MAGIC.noReadReceipts, delivered_at: delivered.delivered_at, read_at: null },
      { handle: MAGIC.unreachable, delivered_at: null, read_at: null },
    ]);
  });

  it("shows the same receipts in GET /v1/messages, with and without conversation_id, and none on one-to-one messages", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB] });
    const sent = await sendInto(t, group.id);
    const direct = (await t.api("POST", "/v1/messages", { body: { to: ALICE, from_handle: MAIN, text: "just you" } }))
      .body.data;
    await t.advance(2_700);
    const single = await message(t, sent.id);
    expect(single.recipients).toHaveLength(2);
    const listed = (await t.api("GET", "/v1/messages")).body.data;
    expect(listed.find((m: any) => m.id === sent.id)).toEqual(single);
    expect(listed.find((m: any) => m.id === direct.id)).not.toHaveProperty("recipients");
    const inThread = (await t.api("GET", `/v1/messages?conversation_id=${group.id}`)).body.data;
    expect(inThread.find((m: any) => m.id === sent.id)).toEqual(single);
  });

  it("fires one message.sent, one message.delivered and one message.read, with is_group and no single `to`", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB] });
    const sent = await sendInto(t, group.id);
    await t.advance(10_000);
    const payloads = await events(t, sent.id);
    expect(payloads.map((p) => p.type)).toEqual(["message.sent", "message.delivered", "message.read"]);
    for (const payload of payloads) {
      expect(payload).toMatchObject({
        message_id: sent.id,
        conversation_id: group.id,
        from: MAIN,
        is_group: true,
        channel: "imessage",
      });
      expect(payload).not.toHaveProperty("to");
    }
  });

  it("is delivered when the first member acknowledges, even if the others never do", async () => {
    const group = await createGroup(t, { addresses: [MAGIC.unreachable, ALICE] });
    const sent = await sendInto(t, group.id);
    await t.advance(700);
    expect(await statusOf(t, sent.id)).toBe("delivered");
  });

  it("stays sent when no member can acknowledge, and delivered when no member sends read receipts", async () => {
    await setContact(t, "gone@example.com", { reachable: false });
    await setContact(t, "quiet@example.com", { read_receipts: false });
    const stuck = await sendInto(t, (await createGroup(t, { addresses: [MAGIC.unreachable, "gone@example.com"] })).id);
    const unread = await sendInto(
      t,
      (await createGroup(t, { addresses: [MAGIC.noReadReceipts, "quiet@example.com"] })).id,
    );
    await t.advance(60_000);
    expect([await statusOf(t, stuck.id), await statusOf(t, unread.id)]).toEqual(["sent", "delivered"]);
  });

  it("can be reacted to once delivered, edited and unsent (iMessage group)", async () => {
    const group = await createGroup(t);
    const sent = await sendInto(t, group.id);
    await t.advance(700);
    expect((await t.api("POST", `/v1/messages/${sent.id}/react`, { body: { reaction: "love" } })).status).toBe(200);
    expect((await t.api("POST", `/v1/messages/${sent.id}/edit`, { body: { text: "edited" } })).status).toBe(200);
    await t.advance(200);
    expect((await message(t, sent.id)).text).toBe("edited");
  });

  it("fails at its send attempt when the number was removed from the group in between", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, IPHONE] });
    const sent = await sendInto(t, group.id);
    await t.api("POST", "/sandbox/v1/simulate/participants", {
      body: { conversation_id: group.id, action: "remove", handle: MAIN, from: ALICE },
    });
    await t.advance(200);
    expect(await message(t, sent.id)).toMatchObject({
      status: "failed",
      error: `${MAIN} is no longer a member of this group`,
    });
    const [failed] = await events(t, sent.id);
    expect(failed).toMatchObject({ type: "message.failed", is_group: true });
  });

  it("is refused at once (409 invalid_state) from a number no longer in the group", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, IPHONE] });
    await t.api("POST", "/sandbox/v1/simulate/participants", {
      body: { conversation_id: group.id, action: "remove", handle: MAIN, from: ALICE },
    });
    expectError(
      await t.api("POST", "/v1/messages", { body: { conversation_id: group.id, text: "x" } }),
      409,
      "invalid_state",
    );
  });

  it("is sent to its members afresh when retried after a forced failure", async () => {
    const group = await createGroup(t);
    const sent = await sendInto(t, group.id);
    await t.advance(200);
    await t.api("POST", `/sandbox/v1/messages/${sent.id}/fail`);
    expect((await t.api("POST", `/v1/messages/${sent.id}/retry`)).status).toBe(200);
    await t.advance(700);
    expect(await message(t, sent.id)).toMatchObject({
      status: "delivered",
      recipients: [expect.objectContaining({ handle: ALICE }), expect.objectContaining({ handle: BOB })],
    });
  });

  it("moves forward on simulate delivered|read: every member at once, each event in order", async () => {
    const group = await createGroup(t, { addresses: [ALICE, MAGIC.unreachable] });
    const sent = await sendInto(t, group.id);
    const forced = (await t.api("POST", `/sandbox/v1/messages/${sent.id}/read`)).body.data;
    expect(forced.status).toBe("read");
    expect(forced.recipients.every((r: any) => r.delivered_at !== null && r.read_at !== null)).toBe(true);
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent", "message.delivered", "message.read"]);
    await t.advance(10_000);
    expect(await eventTypes(t, sent.id)).toHaveLength(3);
  });

  it("goes on after a forced delivered: members with read receipts read it 2 s later", async () => {
    const group = await createGroup(t, { addresses: [ALICE, MAGIC.noReadReceipts] });
    const sent = await sendInto(t, group.id);
    await t.api("POST", `/sandbox/v1/messages/${sent.id}/delivered`);
    await t.advance(1_999);
    expect(await statusOf(t, sent.id)).toBe("delivered");
    await t.advance(1);
    const read = await message(t, sent.id);
    expect(read.status).toBe("read");
    expect(read.recipients.map((r: any) => r.read_at !== null)).toEqual([true, false]);
  });
});

describe("several account numbers in one group (spec 4.5): one conversation each", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("records a contact's message once per member number, with one message.received each, told apart by conversation_id and to", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES, ALICE], text: "hello both" });
    const chats = await allChats(t);
    expect(chats).toHaveLength(2);
    const [mainChat, salesChat] = [
      chats.find((c) => c.from_handle === MAIN),
      chats.find((c) => c.from_handle === SALES),
    ];
    expect(mainChat.participants).toEqual([IPHONE, SALES, ALICE]);
    expect(salesChat.participants).toEqual([IPHONE, MAIN, ALICE]);
    expect(received.conversation_id).toBe(mainChat.id);
    const payloads = (await events(t)).filter((p) => p.type === "message.received");
    expect(payloads).toEqual([
      expect.objectContaining({
        conversation_id: mainChat.id,
        from: IPHONE,
        to: MAIN,
        is_group: true,
        metadata: { sender_handle: IPHONE },
        text: "hello both",
      }),
      expect.objectContaining({
        conversation_id: salesChat.id,
        from: IPHONE,
        to: SALES,
        is_group: true,
        metadata: { sender_handle: IPHONE },
        text: "hello both",
      }),
    ]);
    expect(payloads[0].message_id).not.toBe(payloads[1].message_id);
    expect((await t.api("GET", "/v1/messages")).body.data).toHaveLength(2);
  });

  it("gives the other member number its own copy of a message one of them sends, when it is delivered to it", async () => {
    const received = await groupInbound(t, { to: MAIN, members: [SALES] });
    const salesChat = (await allChats(t)).find((c) => c.from_handle === SALES);
    const sent = await sendInto(t, received.conversation_id, { text: "from main" });
    await t.advance(700);
    const copies = (await t.api("GET", `/v1/messages?conversation_id=${salesChat.id}`)).body.data;
    expect(copies[0]).toMatchObject({ direction: "inbound", text: "from main", metadata: { sender_handle: MAIN } });
    const copyEvent = (await events(t, copies[0].id))[0];
    expect(copyEvent).toMatchObject({
      type: "message.received",
      conversation_id: salesChat.id,
      from: MAIN,
      to: SALES,
      is_group: true,
    });
    // Receipts stay in the sender's conversation; the member number acknowledges but never reads.
    await t.advance(10_000);
    const original = await message(t, sent.id);
    expect(original.recipients).toEqual([
      { handle: IPHONE, delivered_at: expect.any(String), read_at: expect.any(String) },
      { handle: SALES, delivered_at: expect.any(String), read_at: null },
    ]);
    expect((await events(t)).filter((p) => p.type === "message.read").map((p) => p.conversation_id)).toEqual([
      received.conversation_id,
    ]);
  });

  it("keeps receipts per conversation: each number's send has its own sent, delivered and read in its own conversation", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES] });
    const salesChat = (await allChats(t)).find((c) => c.from_handle === SALES);
    const fromMain = await sendInto(t, received.conversation_id, { text: "from main" });
    const fromSales = await sendInto(t, salesChat.id, { text: "from sales" });
    await t.advance(2_700);
    for (const [sent, conversationId] of [
      [fromMain, received.conversation_id],
      [fromSales, salesChat.id],
    ] as const) {
      const receipts = (await events(t, sent.id)).map((p) => [p.type, p.conversation_id]);
      expect(receipts).toEqual([
        ["message.sent", conversationId],
        ["message.delivered", conversationId],
        ["message.read", conversationId],
      ]);
    }
    // Each number got the other's message as an inbound copy in its own conversation.
    const inboundTexts = async (id: string) =>
      (await t.api("GET", `/v1/messages?conversation_id=${id}`)).body.data
        .filter((m: any) => m.direction === "inbound")
        .map((m: any) => m.text);
    expect(await inboundTexts(received.conversation_id)).toEqual(["from sales", "hi all"]);
    expect(await inboundTexts(salesChat.id)).toEqual(["from main", "hi all"]);
  });

  it("fires edits per conversation: an API edit lands on every copy, each with its own message.edited", async () => {
    const received = await groupInbound(t, { to: MAIN, members: [SALES] });
    const sent = await sendInto(t, received.conversation_id, { text: "typo" });
    await t.advance(700);
    await t.api("POST", `/v1/messages/${sent.id}/edit`, { body: { text: "fixed" } });
    await t.advance(200);
    const edited = (await events(t)).filter((p) => p.type === "message.edited");
    expect(edited).toHaveLength(2);
    expect(new Set(edited.map((p) => p.conversation_id)).size).toBe(2);
    expect(edited.every((p) => p.text === "fixed")).toBe(true);
  });

  it("fires a contact's reactions and edits per conversation", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES] });
    const sent = await sendInto(t, received.conversation_id);
    await t.advance(700);
    await t.api("POST", "/sandbox/v1/simulate/reaction", {
      body: { message_id: sent.id, from: IPHONE, reaction: "like" },
    });
    const reactions = (await events(t)).filter((p) => p.type === "message.reaction");
    expect(reactions.map((p) => p.conversation_id)).toHaveLength(2);
    expect(reactions[0]).toMatchObject({
      message_id: sent.id,
      conversation_id: received.conversation_id,
      from: IPHONE,
    });
    await t.api("POST", "/sandbox/v1/simulate/edit", { body: { message_id: received.id, text: "hello, edited" } });
    const edits = (await events(t)).filter((p) => p.type === "message.edited");
    expect(edits).toHaveLength(2);
    expect((await t.api("GET", "/v1/messages")).body.data.filter((m: any) => m.text === "hello, edited")).toHaveLength(
      2,
    );
  });

  it("unsends every copy", async () => {
    const received = await groupInbound(t, { to: MAIN, members: [SALES] });
    const sent = await sendInto(t, received.conversation_id);
    await t.advance(700);
    await t.api("POST", `/v1/messages/${sent.id}/unsend`);
    await t.advance(200);
    const statuses = (await t.api("GET", "/v1/messages")).body.data
      .filter((m: any) => m.text === "to the group")
      .map((m: any) => m.status);
    expect(statuses).toEqual(["unsent", "unsent"]);
  });
});

describe("a deleted account (accounts on demand) leaves nothing of its groups behind", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("removes its groups, their members, its group messages' links and receipts", async () => {
    const res = await t.api("POST", "/sandbox/v1/accounts", { body: { number_count: 2 } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { name, api_key: key, numbers } = res.body.data;
    const [first, second] = numbers.map((n: { handle: string }) => n.handle);
    const group = await t.api("POST", "/v1/chats", {
      key,
      body: { from_handle: first, addresses: [ALICE, second], message: "hi" },
    });
    expect(group.status).toBe(201);
    await t.api("POST", "/v1/messages", { key, body: { conversation_id: group.body.data.id, text: "to the group" } });
    await t.advance(3_000);
    const db = t.sandbox.db;
    const count = (table: "chat_groups" | "chat_group_members" | "group_messages" | "group_receipts") =>
      Number(db.first(db.q.selectFrom(table).select((eb) => eb.fn.countAll().as("n")))?.n ?? 0);
    const tables = ["chat_groups", "chat_group_members", "group_messages", "group_receipts"] as const;
    expect(tables.map(count).every((n) => n > 0)).toBe(true);
    expect((await t.api("DELETE", `/sandbox/v1/accounts/${name}`)).status).toBe(200);
    expect(tables.map(count)).toEqual([0, 0, 0, 0]);
  });
});
