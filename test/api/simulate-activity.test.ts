import { describe, expect, it } from "vitest";
import {
  ANDROID,
  deliveredIMessage,
  events,
  inbound,
  IPHONE,
  MAGIC,
  MAIN,
  message,
  resetBeforeEach,
  send,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("simulate reaction | typing | edit: contact activity", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("fires message.reaction with the reacted-to message_id, reaction, removed and from", async () => {
    const delivered = await deliveredIMessage(t);
    const res = await t.api("POST", "/sandbox/v1/simulate/reaction", {
      body: { message_id: delivered.id, from: IPHONE, reaction: "😂" },
    });
    expect(res.status).toBe(200);
    await t.api("POST", "/sandbox/v1/simulate/reaction", {
      body: { message_id: delivered.id, from: IPHONE, reaction: "😂", remove: true },
    });
    const reactions = (await events(t, delivered.id)).filter((e) => e.type === "message.reaction");
    expect(reactions).toEqual([
      {
        type: "message.reaction",
        message_id: delivered.id,
        conversation_id: delivered.conversation_id,
        reaction: "😂",
        removed: false,
        from: IPHONE,
      },
      {
        type: "message.reaction",
        message_id: delivered.id,
        conversation_id: delivered.conversation_id,
        reaction: "😂",
        removed: true,
        from: IPHONE,
      },
    ]);
  });

  it("refuses a reaction from someone outside the thread (400), before delivery or on SMS (409), to an unknown id (400)", async () => {
    const delivered = await deliveredIMessage(t);
    const outsider = await t.api("POST", "/sandbox/v1/simulate/reaction", {
      body: { message_id: delivered.id, from: "+14155550150", reaction: "like" },
    });
    expect(outsider.status).toBe(400);
    const queued = await send(t, {});
    expect(
      (
        await t.api("POST", "/sandbox/v1/simulate/reaction", {
          body: { message_id: queued.id, from: IPHONE, reaction: "like" },
        })
      ).status,
    ).toBe(409);
    const sms = await send(t, { to: MAGIC.noIMessage });
    await t.advance(700);
    expect(
      (
        await t.api("POST", "/sandbox/v1/simulate/reaction", {
          body: { message_id: sms.id, from: MAGIC.noIMessage, reaction: "like" },
        })
      ).status,
    ).toBe(409);
    const unknown = await t.api("POST", "/sandbox/v1/simulate/reaction", {
      body: { message_id: "7d0c8a3e-1111-4111-8111-111111111111", from: IPHONE, reaction: "like" },
    });
    expect(unknown.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(/^message_id: /) });
  });

  it("fires conversation.typing with conversation_id, typing and from", async () => {
    const received = await inbound(t, {});
    const res = await t.api("POST", "/sandbox/v1/simulate/typing", { body: { from: IPHONE, to: MAIN } });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(received.conversation_id);
    await t.api("POST", "/sandbox/v1/simulate/typing", { body: { from: IPHONE, to: MAIN, typing: false } });
    const typing = (await events(t)).filter((e) => e.type === "conversation.typing");
    expect(typing).toEqual([
      { type: "conversation.typing", conversation_id: received.conversation_id, typing: true, from: IPHONE },
      { type: "conversation.typing", conversation_id: received.conversation_id, typing: false, from: IPHONE },
    ]);
  });

  it("refuses typing on an SMS thread or without a thread with 409", async () => {
    await inbound(t, { from: ANDROID });
    expect((await t.api("POST", "/sandbox/v1/simulate/typing", { body: { from: ANDROID, to: MAIN } })).status).toBe(
      409,
    );
    expect(
      (await t.api("POST", "/sandbox/v1/simulate/typing", { body: { from: "+14155550150", to: MAIN } })).status,
    ).toBe(409);
  });

  it("edits the contact's own message and fires message.edited", async () => {
    const received = await inbound(t, { text: "teh" });
    const res = await t.api("POST", "/sandbox/v1/simulate/edit", { body: { message_id: received.id, text: "the" } });
    expect(res.body.data).toMatchObject({ text: "the", edited_at: expect.any(String) });
    expect((await message(t, received.id)).text).toBe("the");
    const edited = (await events(t, received.id)).find((e) => e.type === "message.edited");
    expect(edited).toEqual({
      type: "message.edited",
      conversation_id: received.conversation_id,
      message_id: received.id,
      text: "the",
      edited_at: res.body.data.edited_at,
    });
  });

  it("refuses a contact's edit of an account message or of an SMS with 409", async () => {
    const sent = await send(t, {});
    expect(
      (await t.api("POST", "/sandbox/v1/simulate/edit", { body: { message_id: sent.id, text: "x" } })).status,
    ).toBe(409);
    const sms = await inbound(t, { from: ANDROID });
    expect((await t.api("POST", "/sandbox/v1/simulate/edit", { body: { message_id: sms.id, text: "x" } })).status).toBe(
      409,
    );
  });
});
