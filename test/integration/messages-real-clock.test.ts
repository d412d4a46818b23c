import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

describe("messages on a real clock (docs/sandbox.md): progress follows wall time", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      clock: "real",
      settings: { sendLatencyMs: 20, deliverLatencyMs: 20, readDelayMs: 20 },
    });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("goes queued → sent → delivered → read without anyone advancing the clock", async () => {
    const { message } = await sandbox.client.messages.send({
      to: "+14155550191",
      from_handle: "+14155550101",
      text: "real time",
    });
    const read = await sandbox.waitForEvent("message.read", { match: { message_id: message.id }, timeout: "5s" });
    expect(read.payload).toMatchObject({ status: "read", channel: "imessage" });
    expect(
      sandbox
        .events()
        .filter((e) => "message_id" in e.payload && e.payload.message_id === message.id)
        .map((e) => e.type),
    ).toEqual(["message.sent", "message.delivered", "message.read"]);
  });
});
