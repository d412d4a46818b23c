import { beforeEach, describe, expect, it } from "vitest";
import { decideReceipt, decideSend } from "../../src/domain/chaos/index.js";
import { chaosOf, seedWhere } from "../helpers/chaos.js";
import { eventTypes, fault, MAIN, message, send, statusOf } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/**
 * Seeded chaos on sends and receipts (docs/chaos.md): a number offline for 1-10 min before a
 * send, a transient send error, a lost receipt; each retried or left as the spec says.
 */

interface Wanted {
  offline?: boolean;
  error?: boolean;
  lostDelivered?: boolean;
  lostRead?: boolean;
}

/** A seed under which the account's first message meets exactly this chaos. */
const seedFor = (wanted: Wanted) =>
  seedWhere((chaos) => {
    const send = decideSend(chaos, 1, 0);
    return (
      (send.offlineForMs !== undefined) === Boolean(wanted.offline) &&
      send.sendError === Boolean(wanted.error) &&
      decideReceipt(chaos, 1, "delivered") === Boolean(wanted.lostDelivered) &&
      decideReceipt(chaos, 1, "read") === Boolean(wanted.lostRead)
    );
  });

const log = async (t: TestSandbox) =>
  (await t.api("GET", "/sandbox/v1/chaos/log")).body.data as Record<string, unknown>[];
const numberStatus = async (t: TestSandbox) =>
  ((await t.api("GET", "/v1/numbers")).body.data as { handle: string; status: string }[]).find((n) => n.handle === MAIN)
    ?.status;

describe("seeded chaos on sends and receipts", () => {
  const t = useSandbox();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    await t.api("DELETE", "/sandbox/v1/chaos");
  });

  async function start(seed: string) {
    const res = await t.api("PUT", "/sandbox/v1/chaos", { body: { seed, profile: "rough" } });
    expect(res.status).toBe(200);
  }

  it("a transient send error: the message stays queued and is sent 30 s later (spec section 3)", async () => {
    await start(seedFor({ error: true }));
    const sent = await send(t, {});
    await t.advance(200);
    expect(await message(t, sent.id)).toMatchObject({ status: "queued", channel: null });
    expect(await log(t)).toEqual([
      expect.objectContaining({ kind: "send_error", message_id: sent.id, message_number: 1, handle: MAIN }),
    ]);
    await t.advance(29_999);
    expect(await statusOf(t, sent.id)).toBe("queued");
    await t.advance(1);
    expect(await statusOf(t, sent.id)).toBe("sent");
    await t.advance(10_000);
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent", "message.delivered", "message.read"]);
  });

  it("a number offline 1-10 min before a send: the fault shows, and the send goes at its backoff slot after", async () => {
    const seed = seedFor({ offline: true });
    const offlineMs = decideSend(chaosOf(seed), 1, 0).offlineForMs as number;
    await start(seed);
    const sent = await send(t, {});
    await t.advance(200);
    expect(await statusOf(t, sent.id)).toBe("queued");
    expect(await numberStatus(t)).toBe("offline");
    expect(await log(t)).toEqual([
      expect.objectContaining({ kind: "number_offline", message_number: 1, handle: MAIN, delay_ms: offlineMs }),
    ]);
    await t.advance(offlineMs - 1);
    expect(await numberStatus(t)).toBe("offline");
    expect(await statusOf(t, sent.id)).toBe("queued");
    await t.advance(1);
    expect(await numberStatus(t)).toBe("online");
    // Backoff 30 s doubling to 5 min from the first attempt: the send goes at the next slot.
    await t.advance(5 * 60_000);
    expect(await statusOf(t, sent.id)).not.toBe("queued");
  });

  it("an outage the user switched by hand meanwhile stays as the user set it", async () => {
    const seed = seedFor({ offline: true });
    const offlineMs = decideSend(chaosOf(seed), 1, 0).offlineForMs as number;
    await start(seed);
    await send(t, {});
    await t.advance(200);
    await t.advance(1_000);
    await fault(t, MAIN, { fault: "offline" });
    await t.advance(offlineMs);
    expect(await numberStatus(t)).toBe("offline");
  });

  it("a lost delivered receipt: the message stays sent, with no message.delivered", async () => {
    await start(seedFor({ lostDelivered: true }));
    const sent = await send(t, {});
    await t.advance(60_000);
    expect(await statusOf(t, sent.id)).toBe("sent");
    expect(await eventTypes(t, sent.id)).toEqual(["message.sent"]);
    expect(await log(t)).toEqual([
      expect.objectContaining({ kind: "receipt_lost", receipt: "delivered", message_id: sent.id, message_number: 1 }),
    ]);
  });

  it("a lost read receipt: the message stays delivered", async () => {
    await start(seedFor({ lostRead: true }));
    const sent = await send(t, {});
    await t.advance(60_000);
    expect(await statusOf(t, sent.id)).toBe("delivered");
    expect(await log(t)).toEqual([expect.objectContaining({ kind: "receipt_lost", receipt: "read" })]);
  });

  it("simulate moves a message on whatever chaos decided: it is the user's own act", async () => {
    await start(seedFor({ lostDelivered: true }));
    const sent = await send(t, {});
    await t.advance(60_000);
    const res = await t.api("POST", `/sandbox/v1/messages/${sent.id}/read`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("read");
  });

  it("a retry after failing is decided afresh (in its new generation)", async () => {
    // Generation 0 when accepted; `simulate fail` moves it to 1 and the retry to 2.
    const seed = seedWhere((chaos) => {
      const [first, retried] = [decideSend(chaos, 1, 0), decideSend(chaos, 1, 2)];
      return (
        !first.sendError && first.offlineForMs === undefined && retried.sendError && retried.offlineForMs === undefined
      );
    });
    await start(seed);
    const sent = await send(t, {});
    await t.api("POST", `/sandbox/v1/messages/${sent.id}/fail`, { body: {} });
    expect(await log(t)).toEqual([]);
    const retried = await t.api("POST", `/v1/messages/${sent.id}/retry`);
    expect(retried.status).toBe(200);
    await t.advance(200);
    expect(await log(t)).toEqual([expect.objectContaining({ kind: "send_error", message_number: 1 })]);
  });

  it("without chaos every message is sent, delivered and read, and nothing is logged", async () => {
    const ids = [];
    for (let i = 0; i < 30; i++) ids.push((await send(t, { text: `m${i}` })).id);
    await t.advance(60_000);
    for (const id of ids)
      expect(await eventTypes(t, id)).toEqual(["message.sent", "message.delivered", "message.read"]);
    expect(await numberStatus(t)).toBe("online");
    expect(await log(t)).toEqual([]);
  });
});
