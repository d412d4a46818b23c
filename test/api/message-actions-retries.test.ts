import { describe, expect, it } from "vitest";
import { listMessageActions } from "../../src/store/messages/index.js";
import {
  deliveredIMessage,
  events,
  fault,
  IPHONE,
  MAIN,
  message,
  resetBeforeEach,
  SALES,
  send,
  statusOf,
  postAction,
} from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("reactions, edits and unsends follow the retry policy but never fail the message (spec section 3)", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("retries an edit through transient errors every 30 s", async () => {
    const delivered = await deliveredIMessage(t);
    await fault(t, MAIN, { fault: "transient", count: 2 });
    await postAction(t, delivered.id, "edit", { text: "third time" });
    await t.advance(60_199);
    expect((await message(t, delivered.id)).edited_at).toBeNull();
    await t.advance(1);
    expect((await message(t, delivered.id)).text).toBe("third time");
  });

  it("drops an edit after 5 transient failures; the message stays delivered", async () => {
    const delivered = await deliveredIMessage(t);
    await fault(t, MAIN, { fault: "transient", count: 5 });
    await postAction(t, delivered.id, "edit", { text: "never" });
    await t.advance(3_600_000);
    expect(await message(t, delivered.id)).toMatchObject({ status: "delivered", text: "hi", error: null });
    expect(listMessageActions(t.sandbox.db, delivered.id)[0]).toMatchObject({ status: "dropped", attempts: 5 });
    expect((await events(t, delivered.id)).map((e) => e.type)).not.toContain("message.failed");
  });

  it("waits for an offline number, and lands at its next backoff slot once online", async () => {
    const delivered = await deliveredIMessage(t);
    await fault(t, MAIN, { fault: "offline" });
    await postAction(t, delivered.id, "unsend");
    await t.advance(40_000); // attempts at 0.2 s and 30.2 s; next at 90.2 s
    await fault(t, MAIN, { fault: "online" });
    await t.advance(50_199);
    expect(await statusOf(t, delivered.id)).toBe("delivered");
    await t.advance(1);
    expect(await statusOf(t, delivered.id)).toBe("unsent");
  });

  it("drops an unsend still offline after 24 h; the message is not failed", async () => {
    const delivered = await deliveredIMessage(t);
    await fault(t, MAIN, { fault: "offline" });
    await postAction(t, delivered.id, "unsend");
    await t.advance(25 * 3_600_000);
    expect(await statusOf(t, delivered.id)).toBe("delivered");
    expect(listMessageActions(t.sandbox.db, delivered.id)[0]).toMatchObject({
      status: "dropped",
      error: expect.stringMatching(/24 hours/),
    });
  });

  it("drops a WhatsApp reaction at once when the session needs re-linking", async () => {
    const sent = await send(t, { from_handle: SALES, channel: "whatsapp", to: IPHONE });
    await t.advance(700);
    await fault(t, SALES, { fault: "relink-required" });
    await postAction(t, sent.id, "react", { reaction: "love" });
    await t.advance(200);
    expect(listMessageActions(t.sandbox.db, sent.id)[0]).toMatchObject({
      status: "dropped",
      error: expect.stringMatching(/re-link/),
    });
    expect(await message(t, sent.id)).toMatchObject({ status: "delivered", error: null });
  });
});
