import { beforeEach, describe, expect, it } from "vitest";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

/** The first 48 bits of a UUIDv7 (RFC 9562): its millisecond time. */
const timeOf = (uuid: string) => Number.parseInt(uuid.replace(/-/g, "").slice(0, 12), 16);
const HOUR = 3_600_000;

// The outbox and the deliveries grow with every event: a random id dirtied a random page of
// their indexes per row (bench/HISTORY.md, fourth pass), a time-ordered one appends.
describe("event and delivery ids are time-ordered UUIDs (UUIDv7 layout)", () => {
  const t = useSandbox();
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.reply(() => ({ status: 204 }));
  });

  it("carry the virtual time they were made at and sort in the order they were made", async () => {
    const hook = await t.api("POST", "/v1/webhooks", { body: { url: receiver.url } });
    expect(hook.status).toBe(201);
    for (let i = 0; i < 3; i++) {
      emitTestEvent(t.sandbox.ctx, "message.sent");
      emitTestEvent(t.sandbox.ctx, "message.read");
      await t.advance(HOUR);
    }

    const events = (await t.api("GET", "/sandbox/v1/events?limit=100")).body.data as {
      id: string;
      seq: number;
      created_at: string;
    }[];
    expect(events).toHaveLength(6);
    for (const event of events) {
      expect(event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(timeOf(event.id)).toBe(Date.parse(event.created_at));
    }
    const bySeq = [...events].sort((a, b) => a.seq - b.seq);
    expect(timeOf(bySeq[5]!.id) - timeOf(bySeq[0]!.id)).toBe(2 * HOUR);
    for (let i = 1; i < bySeq.length; i++) {
      if (timeOf(bySeq[i]!.id) > timeOf(bySeq[i - 1]!.id)) expect(bySeq[i]!.id > bySeq[i - 1]!.id).toBe(true);
    }

    const deliveries = (await t.api("GET", "/sandbox/v1/deliveries?limit=100")).body.data as {
      id: string;
      event_id: string;
    }[];
    expect(deliveries).toHaveLength(6);
    const seqOf = new Map(events.map((event) => [event.id, event.seq]));
    const inEventOrder = [...deliveries].sort((a, b) => seqOf.get(a.event_id)! - seqOf.get(b.event_id)!);
    expect(inEventOrder.map((delivery) => delivery.id)).toEqual(inEventOrder.map((delivery) => delivery.id).sort());
    for (const delivery of deliveries) expect(delivery.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
  });
});
