import { describe, expect, it } from "vitest";
import { ALICE, createGroup, expectError, groupInbound } from "../helpers/groups.js";
import {
  ANDROID,
  events,
  inbound,
  IPHONE,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  SUPPORT,
} from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

const remote = async (t: TestSandbox, id: string) => (await t.api("GET", `/sandbox/v1/chats/${id}/remote`)).body.data;
const typing = (t: TestSandbox, id: string, body: unknown) => t.api("POST", `/v1/chats/${id}/typing`, { body });

describe("POST /v1/chats/:id/read (spec 4.5): marking a thread read", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 200 with the Chat; the thread's inbound messages become read", async () => {
    const first = await inbound(t, { text: "one" });
    const second = await inbound(t, { text: "two" });
    await t.advance(5_000);
    const res = await t.api("POST", `/v1/chats/${first.conversation_id}/read`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: first.conversation_id, is_group: false });
    const now = new Date(t.sandbox.ctx.clock.now()).toISOString();
    for (const id of [first.id, second.id])
      expect(await message(t, id)).toMatchObject({ status: "read", read_at: now });
    expect(await remote(t, first.conversation_id)).toMatchObject({ last_read_at: now });
  });

  it("leaves outbound messages and other threads alone, and fires no event", async () => {
    const sent = await send(t, { to: ALICE });
    const elsewhere = await inbound(t, { from: ALICE });
    const here = await inbound(t, { from: IPHONE });
    await t.api("POST", `/v1/chats/${here.conversation_id}/read`);
    expect((await message(t, elsewhere.id)).status).toBe("delivered");
    expect((await message(t, sent.id)).status).toBe("queued");
    expect((await events(t)).map((p) => p.type)).toEqual(["message.received", "message.received"]);
  });

  it("works on WhatsApp threads and iMessage groups, each conversation on its own", async () => {
    const whatsapp = await inbound(t, { to: SUPPORT });
    expect((await t.api("POST", `/v1/chats/${whatsapp.conversation_id}/read`)).status).toBe(200);
    const group = await groupInbound(t, { to: MAIN, members: [SALES] });
    await t.api("POST", `/v1/chats/${group.conversation_id}/read`);
    const statuses = (await t.api("GET", "/v1/messages")).body.data
      .filter((m: any) => m.text === "hi all")
      .map((m: any) => [m.conversation_id === group.conversation_id, m.status]);
    expect(statuses.sort()).toEqual([
      [false, "delivered"],
      [true, "read"],
    ]);
  });

  it("refuses SMS threads with 409 invalid_state", async () => {
    const sms = await inbound(t, { from: ANDROID });
    expectError(await t.api("POST", `/v1/chats/${sms.conversation_id}/read`), 409, "invalid_state");
    expect((await message(t, sms.id)).status).toBe("delivered");
  });

  it("answers 404 for an unknown chat, and ignores a body", async () => {
    expectError(await t.api("POST", "/v1/chats/7d0c8a3e-1111-4111-8111-111111111111/read"), 404, "not_found");
    const received = await inbound(t, {});
    expect((await t.api("POST", `/v1/chats/${received.conversation_id}/read`, { body: {} })).status).toBe(200);
  });
});

describe("POST /v1/chats/:id/typing (spec 4.5): the typing bubble auto-expires on the contacts' side", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("shows the bubble for 60 s of virtual time, then it hides by itself", async () => {
    const { conversation_id: id } = await send(t, {});
    const res = await typing(t, id, { typing: true });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(id);
    const expires = new Date(t.sandbox.ctx.clock.now() + 60_000).toISOString();
    expect(await remote(t, id)).toEqual({
      conversation_id: id,
      typing: true,
      typing_expires_at: expires,
      last_read_at: null,
    });
    await t.advance(59_999);
    expect((await remote(t, id)).typing).toBe(true);
    await t.advance(1);
    expect(await remote(t, id)).toMatchObject({ typing: false, typing_expires_at: null });
  });

  it("renews the 60 s with typing: true again, and hides the bubble at once with typing: false", async () => {
    const { conversation_id: id } = await send(t, {});
    await typing(t, id, { typing: true });
    await t.advance(30_000);
    await typing(t, id, { typing: true });
    await t.advance(59_000);
    expect((await remote(t, id)).typing).toBe(true);
    await typing(t, id, { typing: false });
    expect((await remote(t, id)).typing).toBe(false);
  });

  it("works in iMessage groups and WhatsApp threads, and fires no event", async () => {
    const group = await createGroup(t);
    expect((await typing(t, group.id, { typing: true })).status).toBe(200);
    const whatsapp = await inbound(t, { to: SUPPORT });
    expect((await typing(t, whatsapp.conversation_id, { typing: true })).status).toBe(200);
    expect((await events(t)).map((p) => p.type)).toEqual(["message.received"]);
  });

  it("refuses SMS threads with 409 invalid_state", async () => {
    const sms = await inbound(t, { from: ANDROID });
    expectError(await typing(t, sms.conversation_id, { typing: true }), 409, "invalid_state");
    expect((await remote(t, sms.conversation_id)).typing).toBe(false);
  });

  it.each([[undefined], [{}], [{ typing: "yes" }], [{ typing: true, extra: 1 }]])(
    "refuses body %j with 400 invalid_request",
    async (body) => {
      const { conversation_id: id } = await send(t, {});
      expect(expectError(await typing(t, id, body), 400, "invalid_request")).toMatch(/^(body|typing): /);
    },
  );
});

describe("simulate typing in groups: conversation.typing per member number's conversation", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("fires conversation.typing with conversation_id and from in each member number's conversation", async () => {
    const received = await groupInbound(t, { from: IPHONE, to: MAIN, members: [SALES, ALICE] });
    const res = await t.api("POST", "/sandbox/v1/simulate/typing", {
      body: { from: ALICE, conversation_id: received.conversation_id },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(received.conversation_id);
    const typingEvents = (await events(t)).filter((p) => p.type === "conversation.typing");
    expect(typingEvents).toHaveLength(2);
    expect(typingEvents[0]).toEqual({
      type: "conversation.typing",
      conversation_id: received.conversation_id,
      typing: true,
      from: ALICE,
    });
    expect(typingEvents[1].conversation_id).not.toBe(received.conversation_id);
  });

  it("refuses a non-member, both to and conversation_id, and group MMS threads", async () => {
    const received = await groupInbound(t, { members: [ALICE] });
    const body = { conversation_id: received.conversation_id };
    expectError(
      await t.api("POST", "/sandbox/v1/simulate/typing", { body: { ...body, from: "+14155550160" } }),
      400,
      "invalid_request",
    );
    expectError(
      await t.api("POST", "/sandbox/v1/simulate/typing", { body: { ...body, from: ALICE, to: MAIN } }),
      400,
      "invalid_request",
    );
    expectError(
      await t.api("POST", "/sandbox/v1/simulate/typing", { body: { ...body, from: MAIN } }),
      400,
      "invalid_request",
    );
    const mms = await groupInbound(t, { members: [ANDROID] });
    expectError(
      await t.api("POST", "/sandbox/v1/simulate/typing", {
        body: { conversation_id: mms.conversation_id, from: IPHONE },
      }),
      409,
      "invalid_state",
    );
  });
});
