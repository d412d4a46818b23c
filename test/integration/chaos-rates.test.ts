import { describe, expect, it } from "vitest";
import { decideDelivery, decideReceipt, decideSend } from "../../src/domain/chaos/index.js";
import { chaosOf } from "../helpers/chaos.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";

/**
 * The rates end to end (docs/chaos.md, "How close to the rates"): 10,000 events through the
 * sandbox, where every decision it took is exactly the one the decision functions give for that
 * identity, and the counts are within the documented tolerance. Sends are slower to drive (each
 * needs its number back online): 400 of them here, identity by identity, and the pure test
 * (test/unit/chaos-decisions.test.ts) holds their rates over 10,000 identities.
 */

const tolerance = (p: number, n: number) => 4 * Math.sqrt((p * (1 - p)) / n);
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

interface Entry {
  kind: string;
  event_number: number | null;
  message_number: number | null;
  receipt: string | null;
  delay_ms: number | null;
}

// 10,000 events take seconds on a loaded machine.
describe("the rates end to end", { timeout: 120_000 }, () => {
  const ok = async () => new Response(null, { status: 204 });
  const t = useSandbox({ fetch: ok as typeof fetch });

  async function fullLog(): Promise<Entry[]> {
    const entries: Entry[] = [];
    for (let after = 0; ; ) {
      const res = await t.api("GET", `/sandbox/v1/chaos/log?after=${after}&limit=100`);
      entries.push(...res.body.data);
      if (!res.body.has_more) return entries;
      after = res.body.data.at(-1).id;
    }
  }
  const numbersOf = (entries: Entry[], kind: string, field: "event_number" | "message_number" = "event_number") =>
    entries.filter((e) => e.kind === kind).map((e) => e[field] as number);

  it.each(["mild", "rough"] as const)(
    "%s: 10,000 events to one endpoint: copies, swaps and extra waits",
    async (profile) => {
      await t.sandbox.control.reset();
      const seed = `rates-${profile}`;
      await t.api("PUT", "/sandbox/v1/chaos", { body: { seed, profile } });
      await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
      const N = 10_000;
      for (let i = 0; i < N; i++) emitTestEvent(t.sandbox.ctx, "message.sent");
      await t.advance(120_000);
      const log = await fullLog();
      const decisions = range(N).map((n) => decideDelivery(chaosOf(seed, profile), n, 1));
      const expected = (pick: (n: number) => boolean) => range(N).filter(pick);
      // Exactly the decisions of the functions, identity by identity.
      expect(numbersOf(log, "duplicate").sort((a, b) => a - b)).toEqual(
        expected((n) => decisions[n - 1]?.duplicateAfterMs !== undefined),
      );
      const waits = expected((n) => decisions[n - 1]?.extraWaitMs !== undefined);
      // Every extra wait, and any swap that found no next event within 30 s: logged as delays.
      expect(numbersOf(log, "delayed").filter((n) => waits.includes(n))).toEqual(waits);
      const swaps = expected((n) => decisions[n - 1]?.swap === true);
      const reordered = numbersOf(log, "reordered").sort((a, b) => a - b);
      // The events come back to back, so every swap but maybe the last finds its partner.
      expect(reordered.every((n) => swaps.includes(n))).toBe(true);
      expect(reordered.length).toBeGreaterThanOrEqual(swaps.length - 1);
      const rates = {
        duplicate: numbersOf(log, "duplicate").length,
        reordered: reordered.length,
        delayed: waits.length,
      };
      for (const [kind, count] of Object.entries(rates)) {
        const p = chaosOf(seed, profile).rates[kind as "duplicate"];
        expect(Math.abs(count / N - p), `${kind}: ${count} of ${N}`).toBeLessThanOrEqual(tolerance(p, N));
      }
      // Every event reached the endpoint, its copies too.
      const deliveries = t.sandbox.db.all<{ n: number }>(
        t.sandbox.db.q
          .selectFrom("webhook_deliveries")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("status", "=", "succeeded"),
      );
      expect(Number(deliveries[0]?.n)).toBe(N + rates.duplicate);
    },
  );

  it("rough: 400 sends, 11 minutes apart: offline numbers, send errors and lost receipts", async () => {
    await t.sandbox.control.reset();
    const seed = "rates-sends";
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed, profile: "rough" } });
    const N = 400;
    for (let i = 0; i < N; i++) {
      const res = await t.api("POST", "/v1/messages", {
        body: { from_handle: "+14155550101", to: "+14155550191", text: `m${i}` },
      });
      expect(res.status).toBe(202);
      await t.advance(11 * 60_000);
    }
    const log = await fullLog();
    const chaos = chaosOf(seed, "rough");
    const sends = range(N).map((n) => decideSend(chaos, n, 0));
    const offline = range(N).filter((n) => sends[n - 1]?.offlineForMs !== undefined);
    const errors = range(N).filter((n) => sends[n - 1]?.offlineForMs === undefined && sends[n - 1]?.sendError);
    expect(numbersOf(log, "number_offline", "message_number")).toEqual(offline);
    expect(numbersOf(log, "send_error", "message_number")).toEqual(errors);
    const lost = log.filter((e) => e.kind === "receipt_lost");
    const lostDelivered = range(N).filter((n) => decideReceipt(chaos, n, "delivered"));
    const lostRead = range(N).filter((n) => !decideReceipt(chaos, n, "delivered") && decideReceipt(chaos, n, "read"));
    expect(lost.filter((e) => e.receipt === "delivered").map((e) => e.message_number)).toEqual(lostDelivered);
    expect(lost.filter((e) => e.receipt === "read").map((e) => e.message_number)).toEqual(lostRead);
    const p = chaos.rates;
    for (const [count, rate, n] of [
      [offline.length, p.number_offline, N],
      [errors.length + offline.length * p.send_error, p.send_error, N],
      [lostDelivered.length, p.receipt_lost, N],
    ] as const) {
      expect(Math.abs(count / n - rate)).toBeLessThanOrEqual(tolerance(rate, n));
    }
  });
});
