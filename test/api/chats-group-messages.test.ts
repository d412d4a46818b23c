import { describe, expect, it } from "vitest";
import { ALICE, BOB, createGroup, expectError, sendInto } from "../helpers/groups.js";
import {
  events,
  eventTypes,
  IPHONE,
  MAGIC,
  MAIN,
  message,
  resetBeforeEach,
  setContact,
  statusOf,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

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
