import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { createWebhook, listDeliveries, type DeliveryView } from "../../src/domain/webhooks/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";

// The spec's literal waits (spec section 6, delivery rule 2).
const S = 1_000;
const H = 3_600_000;
const SPEC_WAITS = [5 * S, 60 * S, 600 * S, 1 * H, 4 * H, 8 * H, 12 * H];

/** A receiver that answers 500 after a few milliseconds and notes how many requests overlapped, by attempt number. */
async function slowFailingReceiver() {
  const state = {
    url: "",
    requests: [] as { eventId: string; attempt: number }[],
    active: new Map<number, number>(),
    most: new Map<number, number>(),
  };
  const server = createServer((req, res) => {
    const attempt = Number(req.headers["x-msgctl-attempt"]);
    const active = (state.active.get(attempt) ?? 0) + 1;
    state.active.set(attempt, active);
    state.most.set(attempt, Math.max(state.most.get(attempt) ?? 0, active));
    req.resume();
    req.on("end", () => {
      state.requests.push({ eventId: String(req.headers["x-msgctl-event-id"]), attempt });
      setTimeout(() => {
        state.active.set(attempt, (state.active.get(attempt) ?? 1) - 1);
        res.writeHead(500).end();
      }, 3);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return Object.assign(state, {
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

describe("the delivery engine with many deliveries at once (docs/webhooks.md)", () => {
  const t = useSandbox();
  let receiver: Awaited<ReturnType<typeof slowFailingReceiver>>;
  beforeAll(async () => {
    receiver = await slowFailingReceiver();
  });
  afterAll(() => receiver.close());

  it("100 failing deliveries each walk the whole ladder: first attempts one at a time in emission order, retries side by side, every attempt recorded in order with its exact virtual time", async () => {
    const accountId = allAccounts(t.sandbox.ctx)[0]!.id;
    await createWebhook(t.sandbox.ctx, accountId, { url: receiver.url });
    const events = Array.from({ length: 100 }, (_, n) => emitTestEvent(t.sandbox.ctx, "message.sent", { n }));
    await t.advance(26 * H);

    expect(receiver.requests).toHaveLength(800);
    expect(receiver.requests.filter((r) => r.attempt === 1).map((r) => r.eventId)).toEqual(events.map((e) => e.id));
    expect(receiver.most.get(1)).toBe(1);
    expect(Math.max(...[2, 3, 4, 5, 6, 7, 8].map((n) => receiver.most.get(n) ?? 0))).toBeGreaterThan(1);

    const deliveries: DeliveryView[] = [];
    for (let before: string | undefined; ; ) {
      const page = listDeliveries(t.sandbox.ctx, accountId, { limit: "100", ...(before ? { before } : {}) });
      deliveries.push(...page.data);
      if (!page.hasMore) break;
      before = page.data.at(-1)?.created_at;
    }
    expect(deliveries).toHaveLength(100);
    for (const delivery of deliveries) {
      expect(delivery.status).toBe("failed");
      expect(delivery.attempts.map((a) => a.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const times = delivery.attempts.map((a) => Date.parse(a.at));
      expect(times.slice(1).map((at, i) => at - (times[i] ?? 0))).toEqual(SPEC_WAITS);
      expect(delivery.attempts.every((a) => a.status_code === 500)).toBe(true);
    }
  });
});
