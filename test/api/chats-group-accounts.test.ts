import { describe, expect, it } from "vitest";
import { ALICE, allChats, groupInbound, sendInto } from "../helpers/groups.js";
import { events, IPHONE, MAIN, message, resetBeforeEach, SALES } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

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
