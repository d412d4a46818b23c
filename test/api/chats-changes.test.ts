import { describe, expect, it } from "vitest";
import { ALICE, allChats, BOB, CAROL, chat, createGroup, expectError, groupInbound } from "../helpers/groups.js";
import { events, fault, IPHONE, MAGIC, MAIN, resetBeforeEach, SALES } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

const rename = (t: TestSandbox, id: string, title: unknown) => t.api("PATCH", `/v1/chats/${id}`, { body: { title } });
const add = (t: TestSandbox, id: string, handle: unknown) =>
  t.api("POST", `/v1/chats/${id}/participants`, { body: { handle } });
const remove = (t: TestSandbox, id: string, handle: string) =>
  t.api("DELETE", `/v1/chats/${id}/participants/${encodeURIComponent(handle)}`);
const renamedEvents = async (t: TestSandbox) => (await events(t)).filter((p) => p.type === "conversation.renamed");

describe("PATCH /v1/chats/:id (spec 4.5): renaming an iMessage group", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 200 with the renamed Chat and fires conversation.renamed", async () => {
    const group = await createGroup(t, { title: "Old" });
    await t.advance(1_000);
    const res = await rename(t, group.id, "New name");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: group.id, title: "New name", participants: [ALICE, BOB] });
    expect(res.body.data.updated_at).not.toBe(group.updated_at);
    expect(await renamedEvents(t)).toEqual([
      { type: "conversation.renamed", conversation_id: group.id, title: "New name" },
    ]);
  });

  it("fires nothing when the title does not change", async () => {
    const group = await createGroup(t, { title: "Same" });
    expect((await rename(t, group.id, "Same")).status).toBe(200);
    expect(await renamedEvents(t)).toEqual([]);
  });

  it("removes the title with null", async () => {
    const group = await createGroup(t, { title: "Gone soon" });
    expect((await rename(t, group.id, null)).body.data.title).toBeNull();
    expect(await renamedEvents(t)).toEqual([{ type: "conversation.renamed", conversation_id: group.id, title: null }]);
  });

  it("takes 100 characters and refuses 101 (400 invalid_request, nothing changes)", async () => {
    const group = await createGroup(t, { title: "Kept" });
    expect((await rename(t, group.id, "b".repeat(100))).body.data.title).toBe("b".repeat(100));
    expect(expectError(await rename(t, group.id, "c".repeat(101)), 400, "invalid_request")).toBe(
      "title: must be at most 100 characters",
    );
    expect((await chat(t, group.id)).title).toBe("b".repeat(100));
  });

  it.each([[undefined], [""], [5], [" "], ["\u200b"], ["x\ny"]])(
    "refuses title %j with 400 invalid_request",
    async (title) => {
      const group = await createGroup(t);
      expect(expectError(await rename(t, group.id, title), 400, "invalid_request")).toMatch(/^title: /);
    },
  );

  it("renames every member number's conversation, each with its own event (from: the number that renamed it)", async () => {
    const group = await createGroup(t, { addresses: [ALICE, SALES] });
    await rename(t, group.id, "Team");
    const sales = (await allChats(t)).find((c) => c.from_handle === SALES);
    expect(sales.title).toBe("Team");
    expect(await renamedEvents(t)).toEqual([
      { type: "conversation.renamed", conversation_id: group.id, title: "Team" },
      { type: "conversation.renamed", conversation_id: sales.id, title: "Team", from: MAIN },
    ]);
  });

  it("answers 404 for an unknown chat, and 409 invalid_state while the number is offline", async () => {
    expectError(await rename(t, "7d0c8a3e-1111-4111-8111-111111111111", "x"), 404, "not_found");
    const group = await createGroup(t);
    await fault(t, MAIN, { fault: "offline" });
    expectError(await rename(t, group.id, "x"), 409, "invalid_state");
  });
});

describe("POST /v1/chats/:id/participants (spec 4.5): adding a member, a synchronous verdict", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 200 with the Chat, the member last in participants", async () => {
    const group = await createGroup(t);
    const res = await add(t, group.id, CAROL);
    expect(res.status).toBe(200);
    expect(res.body.data.participants).toEqual([ALICE, BOB, CAROL]);
  });

  it("refuses a member that cannot join with a clear 400 naming the handle", async () => {
    const group = await createGroup(t);
    expect(expectError(await add(t, group.id, MAGIC.noIMessage), 400, "invalid_request")).toBe(
      "handle: +14155550173 is not registered with iMessage: only iMessage users can be in an iMessage group",
    );
    expect(expectError(await add(t, group.id, "+1 555 0100"), 400, "invalid_request")).toMatch(/^handle: /);
    expect(
      expectError(await t.api("POST", `/v1/chats/${group.id}/participants`, { body: {} }), 400, "invalid_request"),
    ).toMatch(/^handle: /);
    expect((await chat(t, group.id)).participants).toEqual([ALICE, BOB]);
  });

  it("changes nothing for a handle already in the group", async () => {
    const group = await createGroup(t);
    expect((await add(t, group.id, ALICE)).body.data.participants).toEqual([ALICE, BOB]);
  });

  it("takes members up to 32 in all, then answers 409 invalid_state", async () => {
    const addresses = Array.from({ length: 30 }, (_, i) => `+14155550${120 + i}`);
    const group = await createGroup(t, { addresses });
    expect((await add(t, group.id, ALICE)).body.data.participants).toHaveLength(31);
    expect(expectError(await add(t, group.id, BOB), 409, "invalid_state")).toMatch(/full/);
  });

  it("gives one of the account's numbers that joins its own conversation of the group", async () => {
    const group = await createGroup(t, { title: "Ops" });
    await add(t, group.id, SALES);
    const sales = (await allChats(t)).find((c) => c.from_handle === SALES);
    expect(sales).toMatchObject({ is_group: true, title: "Ops", participants: [MAIN, ALICE, BOB] });
  });
});

describe("DELETE /v1/chats/:id/participants/:handle (spec 4.5): removing a member", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 200 with the Chat without the member", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, CAROL] });
    const res = await remove(t, group.id, BOB);
    expect(res.status).toBe(200);
    expect(res.body.data.participants).toEqual([ALICE, CAROL]);
  });

  it("never moves updated_at back before created_at, when list times ran ahead of the clock", async () => {
    // Several messages in one instant take list times a millisecond apart, ahead of the clock.
    for (const text of ["a", "b", "c", "d", "e"])
      await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: IPHONE, to: MAIN, text } });
    const group = await createGroup(t, { addresses: [ALICE, BOB, CAROL] });
    expect(Date.parse(group.created_at)).toBeGreaterThan(t.sandbox.ctx.clock.now());
    const removed = (await remove(t, group.id, BOB)).body.data;
    const renamed = (await rename(t, group.id, "Later")).body.data;
    for (const view of [removed, renamed, await chat(t, group.id)]) {
      expect(view.updated_at >= view.created_at, JSON.stringify(view)).toBe(true);
    }
    expect(renamed.updated_at >= removed.updated_at).toBe(true);
  });

  it("accepts the handle with or without its +", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, CAROL] });
    expect((await t.api("DELETE", `/v1/chats/${group.id}/participants/14155550151`)).body.data.participants).toEqual([
      ALICE,
      CAROL,
    ]);
  });

  it("answers 404 for a handle that is not a member, or not a handle", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, CAROL] });
    expectError(await remove(t, group.id, IPHONE), 404, "not_found");
    expectError(await remove(t, group.id, "nobody"), 404, "not_found");
  });

  it("keeps at least 3 members: removing from a group of 3 is 409 invalid_state", async () => {
    const group = await createGroup(t);
    expect(expectError(await remove(t, group.id, ALICE), 409, "invalid_state")).toMatch(
      /^An iMessage group keeps at least 3 members/,
    );
  });

  it("lets the number leave: its conversation stays, and it can no longer send into it", async () => {
    const group = await createGroup(t, { addresses: [ALICE, BOB, CAROL] });
    expect((await remove(t, group.id, MAIN)).body.data.participants).toEqual([ALICE, BOB, CAROL]);
    expectError(
      await t.api("POST", "/v1/messages", { body: { conversation_id: group.id, text: "x" } }),
      409,
      "invalid_state",
    );
    expectError(await rename(t, group.id, "x"), 409, "invalid_state");
  });
});

describe("contacts change groups too (simulate rename, simulate add|remove)", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  const simulate = (path: string, body: Record<string, unknown>) =>
    t.api("POST", `/sandbox/v1/simulate/${path}`, { body });

  it("a member renames the group: conversation.renamed with from, in every member number's conversation", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES, ALICE] });
    const res = await simulate("rename", { conversation_id: received.conversation_id, title: "Weekend", from: ALICE });
    expect(res.status).toBe(200);
    expect(res.body.data.title).toBe("Weekend");
    const renamed = await renamedEvents(t);
    expect(renamed).toHaveLength(2);
    expect(renamed.every((p) => p.from === ALICE && p.title === "Weekend")).toBe(true);
  });

  it("defaults the renamer to the first member who is a contact", async () => {
    const received = await groupInbound(t, { from: IPHONE, members: [ALICE] });
    await simulate("rename", { conversation_id: received.conversation_id, title: "Hi" });
    expect((await renamedEvents(t))[0].from).toBe(IPHONE);
  });

  it("renames WhatsApp groups too (their members can), but not group MMS threads", async () => {
    const whatsapp = await groupInbound(t, { to: SALES, members: [ALICE], channel: "whatsapp" });
    expect((await simulate("rename", { conversation_id: whatsapp.conversation_id, title: "WA" })).body.data.title).toBe(
      "WA",
    );
    const mms = await groupInbound(t, { members: [MAGIC.android] });
    expectError(await simulate("rename", { conversation_id: mms.conversation_id, title: "x" }), 409, "invalid_state");
  });

  it("adds and removes members; a removed account number gets nothing more", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES, ALICE] });
    const id = received.conversation_id;
    expect(
      (await simulate("participants", { conversation_id: id, action: "add", handle: BOB, from: IPHONE })).body.data
        .participants,
    ).toEqual([IPHONE, SALES, ALICE, BOB]);
    await simulate("participants", { conversation_id: id, action: "remove", handle: SALES, from: IPHONE });
    const before = (await t.api("GET", "/v1/messages")).body.data.length;
    await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: ALICE, group: id, text: "only main now" } });
    expect((await t.api("GET", "/v1/messages")).body.data.length).toBe(before + 1);
  });

  it("writes no more into a removed number's conversation: simulate inbound --group on it is 409 invalid_state", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES, ALICE] });
    await simulate("participants", {
      conversation_id: received.conversation_id,
      action: "remove",
      handle: MAIN,
      from: IPHONE,
    });
    expectError(
      await simulate("inbound", { from: ALICE, group: received.conversation_id, text: "x" }),
      409,
      "invalid_state",
    );
    expect(
      (await simulate("inbound", { from: ALICE, group: received.conversation_id, to: SALES, text: "x" })).status,
    ).toBe(201);
  });

  it("refuses a sender who is not a member, or one of the account's numbers", async () => {
    const received = await groupInbound(t, { members: [ALICE] });
    const body = { conversation_id: received.conversation_id, action: "add", handle: BOB };
    expectError(await simulate("participants", { ...body, from: CAROL }), 400, "invalid_request");
    expectError(await simulate("participants", { ...body, from: MAIN }), 400, "invalid_request");
  });

  it("answers 409 not_a_group on a one-to-one thread", async () => {
    const direct = await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: IPHONE, to: MAIN, text: "x" } });
    expectError(
      await simulate("rename", { conversation_id: direct.body.data.conversation_id, title: "x" }),
      409,
      "not_a_group",
    );
  });
});
