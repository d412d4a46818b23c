import { describe, expect, it } from "vitest";
import { listMessageActions } from "../../src/store/messages/index.js";
import {
  ANDROID,
  deliveredIMessage,
  events,
  expectStatusAt,
  fault,
  inbound,
  MAGIC,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  statusOf,
  SUPPORT,
  postAction,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("react (spec 4.3): target delivered, iMessage or WhatsApp", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers 200 with the Message, and the reaction lands after the send latency", async () => {
    const delivered = await deliveredIMessage(t);
    const res = await postAction(t, delivered.id, "react", { reaction: "love" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: delivered.id, status: "delivered" });
    const [action] = listMessageActions(t.sandbox.db, delivered.id);
    expect(action).toMatchObject({ kind: "react", reaction: "love", status: "pending" });
    await t.advance(200);
    expect(listMessageActions(t.sandbox.db, delivered.id)[0]?.status).toBe("done");
    // message.reaction is for contacts' reactions: the account's own fires nothing.
    expect((await events(t)).filter((e) => e.type === "message.reaction")).toEqual([]);
  });

  it.each(["love", "like", "dislike", "laugh", "emphasize", "question", "👍", "❤️", "👍🏽", "👨‍👩‍👧", "🇫🇷", "1️⃣"])(
    "accepts %s",
    async (reaction) => {
      const delivered = await deliveredIMessage(t);
      expect((await postAction(t, delivered.id, "react", { reaction, remove: true })).status).toBe(200);
    },
  );

  it.each(["hearts", "", "👍👍", "a", "LOVE", "👍 "])(
    "refuses %j with 400 invalid_request naming reaction",
    async (reaction) => {
      const delivered = await deliveredIMessage(t);
      const res = await postAction(t, delivered.id, "react", { reaction });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^reaction: /);
    },
  );

  it("counts a read message as delivered", async () => {
    const sent = await send(t, {});
    await t.advance(3_000);
    expect(await statusOf(t, sent.id)).toBe("read");
    expect((await postAction(t, sent.id, "react", { reaction: "like" })).status).toBe(200);
  });

  it("reacts to a contact's inbound message", async () => {
    const received = await inbound(t, {});
    expect((await postAction(t, received.id, "react", { reaction: "laugh" })).status).toBe(200);
  });

  it("works on WhatsApp", async () => {
    const sent = await send(t, { from_handle: SUPPORT, channel: "whatsapp" });
    await t.advance(700);
    expect((await postAction(t, sent.id, "react", { reaction: "👍" })).status).toBe(200);
  });

  it.each([
    ["queued", async () => (await send(t, {})).id],
    [
      "sent (unreachable contact)",
      async () => {
        const sent = await send(t, { to: MAGIC.unreachable });
        await t.advance(1_000);
        return sent.id;
      },
    ],
    [
      "failed",
      async () => {
        const sent = await send(t, { to: ANDROID });
        await t.advance(200);
        return sent.id;
      },
    ],
  ])("refuses a %s message with 409 invalid_state", async (_name, make) => {
    const id = await make();
    const res = await postAction(t, id, "react", { reaction: "love" });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("invalid_state");
    expect(listMessageActions(t.sandbox.db, id)).toEqual([]);
  });

  it("refuses a delivered SMS with 409 invalid_state", async () => {
    const sent = await send(t, { to: MAGIC.noIMessage });
    await t.advance(700);
    const res = await postAction(t, sent.id, "react", { reaction: "love" });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/SMS/);
  });

  it("answers 404 for a malformed or unknown id, before looking at the body", async () => {
    expect((await postAction(t, "nope", "react", { reaction: "love" })).status).toBe(404);
    expect((await postAction(t, "7d0c8a3e-1111-4111-8111-111111111111", "react", {})).status).toBe(404);
  });
});

describe("edit (spec 4.3): iMessage only, lands asynchronously", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("sets text and edited_at and fires message.edited when it lands, 200 ms later", async () => {
    const delivered = await deliveredIMessage(t);
    const res = await postAction(t, delivered.id, "edit", { text: "fixed typo" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ text: "hi", edited_at: null });
    await t.advance(199);
    expect((await message(t, delivered.id)).edited_at).toBeNull();
    await t.advance(1);
    const edited = await message(t, delivered.id);
    expect(edited).toMatchObject({ text: "fixed typo", edited_at: expect.any(String), status: "delivered" });
    const payload = (await events(t, delivered.id)).find((e) => e.type === "message.edited");
    expect(payload).toEqual({
      type: "message.edited",
      conversation_id: delivered.conversation_id,
      message_id: delivered.id,
      text: "fixed typo",
      edited_at: edited.edited_at,
    });
  });

  it("edits a sent message too", async () => {
    const sent = await send(t, { to: MAGIC.unreachable });
    await t.advance(200);
    expect((await postAction(t, sent.id, "edit", { text: "x" })).status).toBe(200);
  });

  it.each([
    ["before it is sent", async () => (await send(t, {})).id, /not been sent/],
    [
      "on SMS",
      async () => {
        const sent = await send(t, { to: MAGIC.noIMessage });
        await t.advance(700);
        return sent.id;
      },
      /iMessage only/,
    ],
    [
      "on WhatsApp",
      async () => {
        const sent = await send(t, { from_handle: SALES, channel: "whatsapp" });
        await t.advance(700);
        return sent.id;
      },
      /iMessage only/,
    ],
    ["on a contact's message", async () => (await inbound(t, {})).id, /own messages/],
  ])("refuses an edit %s with 409 invalid_state", async (_name, make, text) => {
    const id = await make();
    const res = await postAction(t, id, "edit", { text: "new" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "invalid_state", message: expect.stringMatching(text) });
  });

  it.each([[{}], [{ text: "" }], [{ text: 5 }], [undefined]])(
    "refuses body %j with 400 naming the field",
    async (body) => {
      const delivered = await deliveredIMessage(t);
      const res = await postAction(t, delivered.id, "edit", body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^(text|body): /);
    },
  );
});

describe("unsend (spec section 3): delivered/sent → unsent, iMessage only", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("moves a delivered iMessage to unsent when it lands", async () => {
    const delivered = await deliveredIMessage(t);
    const res = await postAction(t, delivered.id, "unsend");
    expect(res.status).toBe(200);
    await t.advance(200);
    expect(await statusOf(t, delivered.id)).toBe("unsent");
  });

  it("unsends a sent message, which is then never delivered", async () => {
    const start = t.sandbox.ctx.clock.now();
    const sent = await send(t, {});
    await expectStatusAt(t, sent.id, 200, "sent", start);
    await postAction(t, sent.id, "unsend");
    await t.advance(10_000);
    expect(await statusOf(t, sent.id)).toBe("unsent");
    expect((await events(t, sent.id)).map((e) => e.type)).toEqual(["message.sent"]);
  });

  it("refuses edits, reactions and a second unsend of an unsent message with 409", async () => {
    const delivered = await deliveredIMessage(t);
    await postAction(t, delivered.id, "unsend");
    await t.advance(200);
    for (const [action, body] of [
      ["edit", { text: "x" }],
      ["react", { reaction: "love" }],
      ["unsend", undefined],
      ["retry", undefined],
    ] as const) {
      expect((await postAction(t, delivered.id, action, body)).status, action).toBe(409);
    }
  });

  it("drops a pending edit when the message is unsent first", async () => {
    const delivered = await deliveredIMessage(t);
    await fault(t, MAIN, { fault: "transient", count: 1 });
    await postAction(t, delivered.id, "edit", { text: "late" });
    await postAction(t, delivered.id, "unsend");
    await t.advance(60_000);
    const got = await message(t, delivered.id);
    expect(got).toMatchObject({ status: "unsent", text: "hi", edited_at: null });
  });

  it.each([
    ["before it is sent", async () => (await send(t, {})).id],
    [
      "on SMS",
      async () => {
        const sent = await send(t, { to: MAGIC.noIMessage });
        await t.advance(700);
        return sent.id;
      },
    ],
  ])("refuses an unsend %s with 409", async (_name, make) => {
    const id = await make();
    expect((await postAction(t, id, "unsend")).status).toBe(409);
    expect(await statusOf(t, id)).not.toBe("unsent");
  });
});
