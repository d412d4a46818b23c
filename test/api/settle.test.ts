import { beforeEach, describe, expect, it } from "vitest";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { useReceiver, type Receiver } from "../helpers/webhook-receiver.js";

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

async function createHook(t: TestSandbox, url: string) {
  const res = await t.api("POST", "/v1/webhooks", { body: { url, events: ["message.received"] } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

async function inbound(t: TestSandbox, text: string) {
  const res = await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: CONTACT, to: NUMBER, text } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

/** The event ids a receiver has answered, in order. */
const answeredEvents = (receiver: Receiver) => receiver.answered.map((r) => r.headers["x-msgctl-event-id"]);

async function receivedEventIds(t: TestSandbox) {
  const res = await t.api("GET", "/sandbox/v1/events?types=message.received");
  return (res.body.data as { id: string }[]).map((event) => event.id);
}

describe("POST /sandbox/v1/settle: nothing due left in flight", () => {
  const t = useSandbox();
  const app = useReceiver();
  const other = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    for (const receiver of [app, other]) {
      receiver.requests.length = 0;
      receiver.answered.length = 0;
      receiver.reply(() => ({ status: 204, delayMs: 300 }));
    }
  });

  describe("waits for every first attempt due", () => {
    it("answers once each endpoint's receiver (300 ms each) has answered, with the counts", async () => {
      await createHook(t, app.url);
      await createHook(t, other.url);
      await inbound(t, "hello");
      const res = await t.api("POST", "/sandbox/v1/settle");
      expect(res.status).toBe(200);
      const events = await receivedEventIds(t);
      expect(events).toHaveLength(1);
      expect(answeredEvents(app)).toEqual(events);
      expect(answeredEvents(other)).toEqual(events);
      expect(res.body).toEqual({
        data: { now: expect.any(String), jobs_run: 2, attempts: 2 },
        request_id: expect.stringMatching(/^req_/),
      });
      const deliveries = (await t.api("GET", "/sandbox/v1/deliveries")).body.data as { status: string }[];
      expect(deliveries.map((d) => d.status)).toEqual(["succeeded", "succeeded"]);
    });

    it("waits for a first attempt queued behind another to the same endpoint", async () => {
      await createHook(t, app.url);
      await inbound(t, "one");
      await inbound(t, "two");
      const res = await t.api("POST", "/sandbox/v1/settle");
      expect(res.body.data).toMatchObject({ jobs_run: 2, attempts: 2 });
      // In the order the events were emitted.
      expect(answeredEvents(app)).toEqual(await receivedEventIds(t));
    });

    it("counts a failed first attempt as finished (its retry is not due yet)", async () => {
      app.reply(() => ({ status: 500, delayMs: 300 }));
      await createHook(t, app.url);
      await inbound(t, "hello");
      const res = await t.api("POST", "/sandbox/v1/settle");
      expect(res.body.data).toMatchObject({ jobs_run: 1, attempts: 1 });
      const [delivery] = (await t.api("GET", "/sandbox/v1/deliveries")).body.data as {
        status: string;
        attempts: unknown[];
      }[];
      expect(delivery).toMatchObject({ status: "pending", attempts: [{ n: 1, status_code: 500 }] });
    });

    it("answers at once with zero counts when nothing is due", async () => {
      const res = await t.api("POST", "/sandbox/v1/settle");
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ now: expect.any(String), jobs_run: 0, attempts: 0 });
    });
  });

  it("never moves a manual clock, and leaves work due later for an advance", async () => {
    await createHook(t, app.url);
    const before = (await t.api("GET", "/sandbox/v1/clock")).body.data as { now: string };
    const sent = await t.api("POST", "/v1/messages", { body: { from_handle: NUMBER, to: CONTACT, text: "later" } });
    expect(sent.status).toBe(202);
    const res = await t.api("POST", "/sandbox/v1/settle");
    expect(res.body.data.now).toBe(before.now);
    expect((await t.api("GET", "/sandbox/v1/clock")).body.data).toEqual(before);
    expect((await t.api("GET", `/v1/messages/${sent.body.data.id}`)).body.data.status).toBe("queued");
  });

  describe("the timeout (real time)", () => {
    it("is 408 settle_timeout naming the delivery still in flight by its id and endpoint URL", async () => {
      app.reply(() => "hang");
      await createHook(t, app.url);
      await inbound(t, "hello");
      const res = await t.api("POST", "/sandbox/v1/settle", { body: { timeout: "200ms" } });
      expect(res.status).toBe(408);
      const [delivery] = (await t.api("GET", "/sandbox/v1/deliveries")).body.data as { id: string }[];
      expect(res.body).toEqual({
        error: "settle_timeout",
        message: expect.stringContaining(`delivery ${delivery?.id} to ${app.url}`),
        request_id: expect.stringMatching(/^req_/),
      });
      expect(res.body.message).toMatch(/^Not settled within 200ms; still in flight: /);
      expect(res.body.message).not.toMatch(/more/);
    });

    it('names ten deliveries, then "and N more"', async () => {
      app.reply(() => "hang");
      await createHook(t, app.url);
      for (let i = 0; i < 12; i++) await inbound(t, `message ${i}`);
      const res = await t.api("POST", "/sandbox/v1/settle", { body: { timeout: "100ms" } });
      expect(res.status).toBe(408);
      const deliveries = (await t.api("GET", "/sandbox/v1/deliveries")).body.data as { id: string }[];
      const named = deliveries.filter((d) => res.body.message.includes(d.id));
      expect(named).toHaveLength(10);
      expect(res.body.message).toMatch(/, and 2 more$/);
      // The one on the wire first, then the ones waiting behind it in emission order.
      expect(res.body.message).toContain(`delivery ${deliveries.at(-1)?.id} to ${app.url} (attempt in flight)`);
    });
  });

  describe("its body", () => {
    it("may be left out, empty, or give a timeout", async () => {
      for (const body of [undefined, {}, { timeout: "10s" }, { timeout: "0s" }, { timeout: "5m" }]) {
        const res = await t.api("POST", "/sandbox/v1/settle", { body });
        expect(res.status, JSON.stringify(body)).toBe(200);
      }
    });

    it.each([
      [{ timeout: 5 }, /^timeout: must be a string/],
      [{ timeout: "soon" }, /^timeout: "soon" is not a duration/],
      [{ timeout: "6m" }, /^timeout: must be between 0s and 5m/],
      [{ wait: "1s" }, /wait/],
      [[], /must be an object/],
    ])("%j is 400 invalid_request naming the field", async (body, message) => {
      const res = await t.api("POST", "/sandbox/v1/settle", { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
    });
  });
});
