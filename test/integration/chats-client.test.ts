import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/http.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

describe("the typed client and startSandbox(): groups", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("creates, renames and changes a group, and sends into it", async () => {
    const { client } = sandbox;
    const created = await client.chats.create(
      { from_handle: "+14155550101", addresses: ["+14155550150", "+14155550151"], message: "hi", title: "Club" },
      { idempotencyKey: "g-1" },
    );
    expect([created.chat.title, created.replayed]).toEqual(["Club", false]);
    expect(
      (
        await client.chats.create(
          { from_handle: "+14155550101", addresses: ["+14155550150", "+14155550151"], message: "hi" },
          { idempotencyKey: "g-1" },
        )
      ).replayed,
    ).toBe(true);
    const id = created.chat.id;
    await client.chats.rename(id, "Club 2");
    expect((await sandbox.waitForEvent("conversation.renamed", { match: { conversation_id: id } })).payload.title).toBe(
      "Club 2",
    );
    expect((await client.chats.addParticipant(id, "+14155550152")).participants).toHaveLength(3);
    expect((await client.chats.removeParticipant(id, "+14155550151")).participants).toEqual([
      "+14155550150",
      "+14155550152",
    ]);
    const { message } = await client.messages.send({ conversation_id: id, text: "follow-up" });
    await sandbox.clock.advance("3s");
    expect((await client.messages.get(message.id)).recipients?.map((r) => r.handle)).toEqual([
      "+14155550150",
      "+14155550152",
    ]);
    await client.chats.typing(id);
    expect((await sandbox.simulate.remoteView(id)).typing).toBe(true);
    await expect(client.chats.rename("00000000-0000-4000-8000-000000000000", "x")).rejects.toBeInstanceOf(ApiError);
  });

  it("plays contacts in groups: inbound with members, rename, participants, typing", async () => {
    const received = await sandbox.simulate.inbound({
      from: "+14155550191",
      to: "+14155550101",
      members: ["+14155550103"],
      text: "both of you",
    });
    const event = await sandbox.waitForEvent("message.received", {
      match: (p) => p.is_group === true && p.to === "+14155550103",
    });
    expect(event.payload).toMatchObject({ from: "+14155550191", is_group: true });
    const id = received.conversation_id;
    expect((await sandbox.simulate.rename({ conversation_id: id, title: "Both" })).title).toBe("Both");
    expect(
      (
        await sandbox.simulate.participants({
          conversation_id: id,
          action: "add",
          handle: "+14155550150",
          from: "+14155550191",
        })
      ).participants,
    ).toContain("+14155550150");
    await sandbox.simulate.typing({ from: "+14155550191", conversation_id: id });
    expect(sandbox.events().filter((e) => e.type === "conversation.typing")).toHaveLength(2);
  });
});
