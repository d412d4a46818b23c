import { beforeEach, describe, expect, it } from "vitest";
import { useServe } from "../helpers/cli.js";

/**
 * `msgctl trigger EVENT` (README.md): for each event of spec section 6, the real
 * actions that cause it, checked by the event it must produce.
 */
describe("msgctl trigger, end to end", () => {
  const sandbox = useServe();
  const { cli, json, reset } = sandbox;
  beforeEach(() => reset());

  /** The events emitted after sequence number `seq`, over the control API. */
  const eventsAfter = async (seq: number) => {
    const res = await fetch(`${sandbox.serve.ready.base_url}/sandbox/v1/events?after=${seq}`, {
      headers: { authorization: "Bearer sk_test_acme_0000000000000000" },
    });
    return ((await res.json()) as { data: { type: string }[] }).data;
  };

  it("--list names every event of spec section 6", async () => {
    const list = await json("trigger", "--list");
    expect(list.map((row: { event: string }) => row.event).sort()).toEqual(
      [
        "conversation.renamed",
        "conversation.typing",
        "message.delivered",
        "message.edited",
        "message.failed",
        "message.read",
        "message.received",
        "message.reaction",
        "message.sent",
      ].sort(),
    );
  });

  // The virtual time each needs with the documented latencies (send 200 ms, deliver 500 ms, read 2 s).
  it.each([
    ["message.sent", 200, { status: "sent", channel: "imessage", to: "+14155550171" }],
    ["message.delivered", 700, { status: "delivered", to: "+14155550172" }],
    ["message.read", 2_700, { status: "read" }],
    ["message.failed", 200, { status: "failed", error: expect.stringMatching(/Android/) }],
    ["message.received", 0, { from: "+14155550160", to: "+14155550101", channel: "imessage", has_attachments: false }],
    ["message.edited", 400, { text: "Triggered by msgctl (edited)" }],
    ["message.reaction", 700, { reaction: "love", removed: false, from: "+14155550172" }],
    ["conversation.typing", 0, { typing: true, from: "+14155550160" }],
    ["conversation.renamed", 0, { title: "Triggered by msgctl", from: "+14155550160" }],
  ])(
    "%s: the actions run and the event is emitted, the manual clock advanced just enough",
    async (type, needs, payload) => {
      const result = await json("trigger", type);
      expect(result.advanced_ms).toBeGreaterThanOrEqual(needs);
      expect(result.advanced_ms).toBeLessThanOrEqual(2 * needs);
      expect(result.event.type).toBe(type);
      expect(result.event.payload).toMatchObject({ type, ...payload });
      // Nothing of it is invented: the event is in the sandbox's outbox like any other.
      const events = await json(
        "wait",
        "event",
        type,
        "--match",
        `conversation_id=${result.event.payload.conversation_id}`,
        "--timeout",
        "2s",
      );
      expect(events.type).toBe(type);
      // What it made is at rest: a day later, nothing the user did not ask for has followed.
      await json("clock", "advance", "24h");
      expect(await eventsAfter(result.event.seq)).toEqual([]);
    },
  );

  it("an unknown event is a usage error (exit 2)", async () => {
    const result = await cli("trigger", "message.redd");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/Unknown event "message.redd"/);
  });
});
