import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { AppError, startSandbox, type StartedSandbox } from "../../src/index.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

/**
 * What a user's suite does: a control action, then settle, and only then
 * a look at its app, here a receiver that takes 300 ms to handle each delivery.
 */
describe.each(["manual", "real"] as const)("sb.settle() on a %s clock", (clock) => {
  let sb: StartedSandbox;
  const app = useReceiver();
  beforeAll(async () => {
    sb = await startSandbox({ clock });
  });
  afterAll(() => sb.stop());
  beforeEach(async () => {
    await sb.reset();
    app.requests.length = 0;
    app.answered.length = 0;
    app.reply(() => ({ status: 204, delayMs: 300 }));
  });
  const handled = () => app.answered.map((request) => request.headers["x-msgctl-event-id"]);

  it("the app has every delivery when settle returns, in 50 of 50 tries", { timeout: 60_000 }, async () => {
    await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
    // Any handling time longer than settle's own answer (a millisecond or two) proves the wait;
    // 40 ms keeps fifty tries quick.
    app.reply(() => ({ status: 204, delayMs: 40 }));
    const late: number[] = [];
    for (let i = 0; i < 50; i++) {
      const message = await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: `try ${i}` });
      const settled = await sb.settle();
      const event = sb
        .events()
        .find((e) => e.type === "message.received" && (e.payload as { message_id?: string }).message_id === message.id);
      if (!handled().includes(event?.id) || settled.attempts !== 1) late.push(i);
    }
    expect(late).toEqual([]);
    expect(app.answered).toHaveLength(50);
  });

  it("never moves the clock it settles", async () => {
    const before = sb.clock.now().getTime();
    const settled = await sb.settle();
    expect(new Date(settled.now).getTime()).toBeGreaterThanOrEqual(before);
    if (clock === "manual") {
      expect(settled.now).toBe(new Date(before).toISOString());
      expect(sb.clock.now().getTime()).toBe(before);
    }
  });

  it("throws an AppError settle_timeout past its timeout, naming the delivery and its URL", async () => {
    app.reply(() => "hang");
    await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "hang on" });
    const error = await sb.settle({ timeout: "200ms" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    const [delivery] = (await sb.client.webhooks.deliveries()).data;
    expect(error).toMatchObject({
      code: "settle_timeout",
      status: 408,
      message: expect.stringContaining(`delivery ${delivery?.id} to ${app.url} (attempt in flight)`),
    });
    // Milliseconds are taken too, and a bad timeout names the field.
    await expect(sb.settle({ timeout: 100 })).rejects.toMatchObject({ code: "settle_timeout" });
    await expect(sb.settle({ timeout: "soon" })).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/^timeout: /),
    });
  });

  describe("waitForEvent(type, { delivered: true })", () => {
    it("resolves once the event's first attempt to every subscribed endpoint has finished, not when it is emitted", async () => {
      await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
      await sb.client.webhooks.create({ url: `${app.url}/second`, events: ["message.received"] });
      const message = await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "hello" });
      const emitted = await sb.waitForEvent("message.received", { match: { message_id: message.id } });
      expect(handled()).not.toContain(emitted.id);
      const delivered = await sb.waitForEvent("message.received", {
        match: { message_id: message.id },
        delivered: true,
      });
      expect(delivered.id).toBe(emitted.id);
      expect(handled()).toEqual([emitted.id, emitted.id]);
    });

    it("waits for an event not emitted yet, then for its delivery", async () => {
      await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
      const waiting = sb.waitForEvent("message.received", { match: { text: "later" }, delivered: true });
      await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "later" });
      const event = await waiting;
      expect(handled()).toEqual([event.id]);
    });

    it("counts a failed first attempt as finished", async () => {
      app.reply(() => ({ status: 503 }));
      await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
      await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "fails" });
      const event = await sb.waitForEvent("message.received", { delivered: true });
      const [delivery] = (await sb.client.webhooks.deliveries({ eventId: event.id })).data;
      expect(delivery).toMatchObject({ status: "pending", attempts: [{ n: 1, status_code: 503 }] });
    });

    it("resolves when emitted when no endpoint subscribes", async () => {
      await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "nobody listens" });
      await expect(sb.waitForEvent("message.received", { delivered: true })).resolves.toMatchObject({
        type: "message.received",
      });
    });

    it("says the event was emitted but not delivered when the receiver hangs past the timeout", async () => {
      app.reply(() => "hang");
      await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
      await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "hang on" });
      await expect(sb.waitForEvent("message.received", { delivered: true, timeout: 200 })).rejects.toThrow(
        /^The message\.received event [0-9a-f-]{36} was emitted, but not every first delivery attempt finished within 200 ms$/,
      );
    });
  });
});
