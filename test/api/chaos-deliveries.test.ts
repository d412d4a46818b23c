import { beforeEach, describe, expect, it } from "vitest";
import { decideDelivery, type DeliveryDecision } from "../../src/domain/chaos/index.js";
import { ROUGH_RATES, seedWhere } from "../helpers/chaos.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { useReceiver, type ReceivedRequest } from "../helpers/webhook-receiver.js";

/**
 * Seeded chaos on webhook deliveries (docs/chaos.md): copies, swaps and extra waits, each marked
 * with X-Msgctl-Chaos, in the clock's time, and what settle waits for meanwhile.
 */

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

type Wanted = Partial<{ copy: boolean; swap: boolean; wait: boolean }>;

/** True when a delivery decision has exactly the chaos named (the rest absent). */
const exactly = (d: DeliveryDecision, wanted: Wanted) =>
  (d.duplicateAfterMs !== undefined) === Boolean(wanted.copy) &&
  d.swap === Boolean(wanted.swap) &&
  (d.extraWaitMs !== undefined) === Boolean(wanted.wait);

/** A seed under which events 1, 2, … to endpoint 1 meet exactly the chaos listed, in order. */
const seedFor = (...events: Wanted[]) =>
  seedWhere((chaos) => events.every((wanted, i) => exactly(decideDelivery(chaos, i + 1, 1), wanted)));

/** The decision for event `n` to endpoint 1 under a seed (to know its amounts). */
const decision = (seed: string, n: number) =>
  decideDelivery(
    {
      seed,
      key: seed,
      profile: "rough",
      rates: ROUGH_RATES,
    },
    n,
    1,
  );

const text = (request: ReceivedRequest) => JSON.parse(request.body).text as string;
const chaosHeader = (request: ReceivedRequest) => request.headers["x-msgctl-chaos"] ?? null;

interface DeliveryView {
  id: string;
  event_id: string;
  status: string;
  chaos: string | null;
  next_attempt_at: string | null;
  attempts: { n: number; at: string }[];
}

describe("seeded chaos on webhook deliveries", () => {
  const t = useSandbox();
  const receiver = useReceiver();

  async function start(seed: string) {
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed, profile: "rough" } });
    const res = await t.api("POST", "/v1/webhooks", { body: { url: receiver.url, events: ["message.received"] } });
    expect(res.status).toBe(201);
  }

  async function inbound(text: string) {
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: CONTACT, to: NUMBER, text } });
    expect(res.status).toBe(201);
  }

  const settle = async () => (await t.api("POST", "/sandbox/v1/settle")).body.data as { attempts: number };
  const deliveries = async () => (await t.api("GET", "/sandbox/v1/deliveries")).body.data as DeliveryView[];
  const now = async () => Date.parse((await t.api("GET", "/sandbox/v1/clock")).body.data.now);

  beforeEach(async () => {
    await t.sandbox.control.reset();
    await t.api("DELETE", "/sandbox/v1/chaos");
    receiver.requests.length = 0;
    receiver.answered.length = 0;
    receiver.reply(() => ({ status: 204 }));
  });

  describe("duplicate: a copy of the event 1-60 s later", () => {
    it("is a delivery of its own whose attempts carry X-Msgctl-Chaos: duplicate and the event's X-Msgctl-Event-Id", async () => {
      const seed = seedFor({ copy: true });
      const after = decision(seed, 1).duplicateAfterMs as number;
      await start(seed);
      await inbound("hello");
      expect(await settle()).toMatchObject({ attempts: 1 });
      // Settle does not wait for a copy that is not due yet.
      expect(receiver.requests).toHaveLength(1);
      const [original] = receiver.requests;
      expect(chaosHeader(original as ReceivedRequest)).toBeNull();

      await t.advance(after - 1);
      expect(receiver.requests).toHaveLength(1);
      await t.advance(1);
      expect(receiver.requests).toHaveLength(2);
      const copy = receiver.requests[1] as ReceivedRequest;
      expect(chaosHeader(copy)).toBe("duplicate");
      expect(copy.headers["x-msgctl-event-id"]).toBe(original?.headers["x-msgctl-event-id"]);
      expect(copy.headers["x-msgctl-attempt"]).toBe("1");
      expect(copy.body).toBe(original?.body);

      const [copyView, originalView] = await deliveries();
      expect(originalView).toMatchObject({ chaos: null, status: "succeeded" });
      expect(copyView).toMatchObject({ chaos: "duplicate", status: "succeeded", event_id: originalView?.event_id });
      const log = (await t.api("GET", "/sandbox/v1/chaos/log")).body.data;
      expect(log).toEqual([
        expect.objectContaining({ kind: "duplicate", delivery_id: copyView?.id, event_number: 1, delay_ms: after }),
      ]);
    });

    it("retries a copy the receiver refused, each attempt marked duplicate", async () => {
      const seed = seedFor({ copy: true });
      await start(seed);
      receiver.reply((_request, n) => ({ status: n === 2 ? 500 : 204 }));
      await inbound("hello");
      await t.advance(60_000 + 5_000);
      expect(receiver.requests.map((r) => [chaosHeader(r), r.headers["x-msgctl-attempt"]])).toEqual([
        [null, "1"],
        ["duplicate", "1"],
        ["duplicate", "2"],
      ]);
    });
  });

  describe("reordered: two consecutive first attempts to one endpoint swap", () => {
    it("the next event goes first, then the swapped one, marked reordered", async () => {
      const seed = seedFor({ swap: true }, {}, {});
      await start(seed);
      await inbound("one");
      expect(await settle()).toMatchObject({ attempts: 0 });
      expect(receiver.requests).toHaveLength(0);
      await inbound("two");
      await inbound("three");
      await settle();
      expect(receiver.answered.map((r) => [text(r), chaosHeader(r)])).toEqual([
        ["two", null],
        ["one", "reordered"],
        ["three", null],
      ]);
      const log = (await t.api("GET", "/sandbox/v1/chaos/log")).body.data;
      expect(log).toEqual([expect.objectContaining({ kind: "reordered", event_number: 1, delay_ms: 0 })]);
      expect((await deliveries()).map((d) => d.chaos)).toEqual([null, null, "reordered"]);
    });

    it("with no next event within 30 s, it goes alone, as a delay", async () => {
      const seed = seedFor({ swap: true });
      await start(seed);
      await inbound("one");
      const [held] = await deliveries();
      expect(held).toMatchObject({ status: "pending", chaos: "reordered", attempts: [] });
      expect(Date.parse(held?.next_attempt_at as string)).toBe((await now()) + 30_000);
      await t.advance(29_999);
      expect(receiver.requests).toHaveLength(0);
      await t.advance(1);
      expect(receiver.requests.map((r) => [text(r), chaosHeader(r)])).toEqual([["one", "delayed"]]);
      expect((await deliveries())[0]?.chaos).toBe("delayed");
      const log = (await t.api("GET", "/sandbox/v1/chaos/log")).body.data;
      expect(log).toEqual([expect.objectContaining({ kind: "delayed", event_number: 1, delay_ms: 30_000 })]);
    });
  });

  describe("delayed: a first attempt waits an extra 1-30 s", () => {
    it("goes at its time, in the clock's time; later events to the endpoint keep their order behind it", async () => {
      const seed = seedFor({ wait: true }, {});
      const wait = decision(seed, 1).extraWaitMs as number;
      await start(seed);
      const before = await now();
      await inbound("one");
      await inbound("two");
      // Neither is due: settle waits for no first attempt.
      expect(await settle()).toMatchObject({ attempts: 0 });
      expect(receiver.requests).toHaveLength(0);
      await t.advance(wait - 1);
      expect(receiver.requests).toHaveLength(0);
      await t.advance(1);
      expect(receiver.answered.map((r) => [text(r), chaosHeader(r)])).toEqual([
        ["one", "delayed"],
        ["two", null],
      ]);
      const [two, one] = await deliveries();
      expect(Date.parse(one?.attempts[0]?.at as string)).toBe(before + wait);
      expect(Date.parse(two?.attempts[0]?.at as string)).toBe(before + wait);
      const log = (await t.api("GET", "/sandbox/v1/chaos/log")).body.data;
      expect(log).toEqual([expect.objectContaining({ kind: "delayed", event_number: 1, delay_ms: wait })]);
    });

    it("only its first attempt is marked: a retry after it carries no X-Msgctl-Chaos", async () => {
      const seed = seedFor({ wait: true });
      await start(seed);
      receiver.reply((_request, n) => ({ status: n === 1 ? 500 : 204 }));
      await inbound("one");
      await t.advance(30_000 + 5_000);
      expect(receiver.requests.map((r) => [chaosHeader(r), r.headers["x-msgctl-attempt"]])).toEqual([
        ["delayed", "1"],
        [null, "2"],
      ]);
    });
  });

  describe("switching chaos off", () => {
    it("lets every held first attempt go at once, in order", async () => {
      const seed = seedFor({ wait: true }, { swap: true }, {});
      await start(seed);
      await inbound("one");
      await inbound("two");
      expect(receiver.requests).toHaveLength(0);
      await t.api("DELETE", "/sandbox/v1/chaos");
      await settle();
      expect(receiver.answered.map(text)).toEqual(["one", "two"]);
      await inbound("three");
      await settle();
      expect(receiver.answered.map((r) => [text(r), chaosHeader(r)])).toEqual([
        ["one", "delayed"],
        ["two", "delayed"],
        ["three", null],
      ]);
    });
  });

  describe("without chaos", () => {
    it("nothing is duplicated, reordered or delayed, and no attempt carries X-Msgctl-Chaos", async () => {
      const res = await t.api("POST", "/v1/webhooks", { body: { url: receiver.url, events: ["message.received"] } });
      expect(res.status).toBe(201);
      const sent = Array.from({ length: 50 }, (_, i) => `m${i}`);
      for (const message of sent) await inbound(message);
      await settle();
      expect(receiver.answered.map(text)).toEqual(sent);
      expect(receiver.requests.every((r) => chaosHeader(r) === null)).toBe(true);
      await t.advance(24 * 3_600_000);
      expect(receiver.requests).toHaveLength(50);
      const all = await deliveries();
      expect(all.every((d) => d.chaos === null && d.attempts.length === 1)).toBe(true);
      expect((await t.api("GET", "/sandbox/v1/chaos/log")).body.data).toEqual([]);
    });
  });

  it("an endpoint deleted with deliveries held abandons them", async () => {
    const seed = seedFor({ wait: true }, {});
    await start(seed);
    await inbound("one");
    await inbound("two");
    const [hook] = (await t.api("GET", "/v1/webhooks")).body.data as { id: string }[];
    await t.api("DELETE", `/v1/webhooks/${hook?.id}`);
    await t.advance(60_000);
    expect(receiver.requests).toHaveLength(0);
    expect((await deliveries()).map((d) => d.status)).toEqual(["abandoned", "abandoned"]);
  });
});
