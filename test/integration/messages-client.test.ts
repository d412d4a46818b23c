import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/http.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

describe("the typed client: messages, chats, contacts, simulate, faults", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("sends, follows the lifecycle with the clock, and reads it back", async () => {
    const { client } = sandbox;
    const { message, replayed } = await client.messages.send(
      { to: "+14155550191", from_handle: "+14155550101", text: "hi" },
      { idempotencyKey: "c-1" },
    );
    expect([message.status, replayed]).toEqual(["queued", false]);
    expect(
      (
        await client.messages.send(
          { to: "+14155550191", from_handle: "+14155550101", text: "hi" },
          { idempotencyKey: "c-1" },
        )
      ).replayed,
    ).toBe(true);
    await sandbox.clock.advance("3s");
    expect(await client.messages.get(message.id)).toMatchObject({ status: "read", channel: "imessage" });
    expect((await sandbox.waitForEvent("message.read", { match: { message_id: message.id } })).payload.type).toBe(
      "message.read",
    );
    expect((await client.chats.get(message.conversation_id)).remote_handle).toBe("+14155550191");
    expect((await client.chats.list()).data).toHaveLength(1);
  });

  it("reacts, edits, unsends, and walks every page with all()", async () => {
    const { client } = sandbox;
    const { message } = await client.messages.send({ to: "+14155550172", from_handle: "+14155550101", text: "x" });
    await client.simulate.delivered(message.id);
    await client.messages.react(message.id, "love");
    await client.messages.edit(message.id, "y");
    await sandbox.clock.advance(200);
    expect((await client.messages.get(message.id)).text).toBe("y");
    await client.messages.unsend(message.id);
    await sandbox.clock.advance(200);
    expect((await client.messages.get(message.id)).status).toBe("unsent");
    const ids: string[] = [];
    for await (const m of client.messages.all({ limit: 1 })) ids.push(m.id);
    expect(ids).toHaveLength(2);
  });

  it("drives contacts, inbound, faults and retry", async () => {
    const { client } = sandbox;
    expect((await client.contacts.set("+14155550150", { platform: "android" })).imessage).toBe(false);
    expect((await client.messages.availability("+14155550150")).channel).toBe("sms");
    const received = await client.simulate.inbound({ from: "+14155550150", to: "+14155550101", text: "hello" });
    expect(received.direction).toBe("inbound");
    expect((await client.simulate.fault("+14155550101", "transient", { count: 5 })).transient_remaining).toBe(5);
    const { message } = await client.messages.send({ to: "+14155550150", from_handle: "+14155550101", text: "x" });
    await sandbox.clock.advance("2m1s");
    expect((await client.messages.get(message.id)).status).toBe("failed");
    expect((await client.messages.retry(message.id)).status).toBe("queued");
    const error = await client.messages.retry(message.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("invalid_state");
    expect((await client.simulate.faults("+14155550101")).transient_remaining).toBe(0);
    expect((await client.contacts.list()).some((c) => c.handle === "+14155550150")).toBe(true);
  });
});
