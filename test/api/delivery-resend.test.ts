import { beforeEach, describe, expect, it } from "vitest";
import { parseFixture } from "../../src/domain/control/index.js";
import { verifyWebhook } from "../../src/lib/webhook-signature.js";
import { emitTestEvent } from "../helpers/events.js";
import { KEY, useSandbox, type TestSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const OTHER_KEY = "sk_test_globex_000000000000000";
const fixture = parseFixture(
  {
    accounts: [
      { name: "Acme", api_key: KEY },
      { name: "Globex", api_key: OTHER_KEY },
    ],
  },
  "test fixture",
);

interface Attempt {
  n: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  resend: boolean;
  signature: string | null;
}
interface Delivery {
  id: string;
  status: string;
  event_id: string;
  attempts: Attempt[];
  next_attempt_at: string | null;
}

async function onlyDelivery(t: TestSandbox): Promise<Delivery> {
  const list = (await t.api("GET", "/sandbox/v1/deliveries")).body.data as Delivery[];
  expect(list).toHaveLength(1);
  return list[0] as Delivery;
}

const resend = (t: TestSandbox, id: string, key?: string) =>
  t.api("POST", `/sandbox/v1/deliveries/${id}/resend`, { key });

describe("resend a delivery (POST /sandbox/v1/deliveries/:id/resend)", () => {
  const t = useSandbox({ fixture });
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    receiver.reply(() => ({ status: 204 }));
  });

  const createHook = async (secret = "resend-secret-0123456789") =>
    (await t.api("POST", "/v1/webhooks", { body: { url: receiver.url, secret } })).body.data as {
      id: string;
      secret: string;
    };

  it("posts the stored payload again now, signed afresh, recorded as a resend", async () => {
    await createHook();
    const event = emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const before = await onlyDelivery(t);
    expect(before.status).toBe("succeeded");
    await t.advance(3_600_000);
    const now = (await t.api("GET", "/sandbox/v1/clock")).body.data.now as string;

    const res = await resend(t, before.id);
    expect(res.status).toBe(200);
    const after = res.body.data as Delivery;
    expect(after.status).toBe("succeeded");
    expect(after.attempts.map((a) => [a.n, a.status_code, a.resend])).toEqual([
      [1, 204, false],
      [2, 204, true],
    ]);
    expect(after.attempts[1]?.at).toBe(now);

    const [first, second] = receiver.requests;
    expect(second?.body).toBe(first?.body);
    expect(second?.headers["x-msgctl-event-id"]).toBe(event.id);
    // The rung it repeats: X-Msgctl-Attempt stays within 1-8 (docs/webhooks.md).
    expect(second?.headers["x-msgctl-attempt"]).toBe("1");
    expect(second?.headers["x-msgctl-resend"]).toBe("1");
    expect(
      verifyWebhook(second?.body ?? "", String(second?.headers["x-service-signature"]), "resend-secret-0123456789").ok,
    ).toBe(true);
    expect(await onlyDelivery(t)).toEqual(after);
  });

  it("signs with the secret in force now, after a rotation", async () => {
    const hook = await createHook();
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const rotated = (await t.api("POST", `/v1/webhooks/${hook.id}/rotate-secret`)).body.data.secret as string;
    await resend(t, (await onlyDelivery(t)).id);
    const last = receiver.requests.at(-1);
    const signature = String(last?.headers["x-service-signature"]);
    expect(verifyWebhook(last?.body ?? "", signature, rotated).ok).toBe(true);
    expect(verifyWebhook(last?.body ?? "", signature, "resend-secret-0123456789").ok).toBe(false);
  });

  it("an acknowledged resend settles a failed delivery as succeeded", async () => {
    await createHook();
    receiver.reply(() => ({ status: 500 }));
    emitTestEvent(t.sandbox.ctx);
    // The whole ladder: 5 s, 1 m, 10 m, 1 h, 4 h, 8 h, 12 h after the first attempt.
    await t.advance(0);
    for (const wait of [5_000, 60_000, 600_000, 3_600_000, 14_400_000, 28_800_000, 43_200_000]) await t.advance(wait);
    const failed = await onlyDelivery(t);
    expect(failed.status).toBe("failed");
    expect(failed.attempts).toHaveLength(8);

    receiver.reply(() => ({ status: 200 }));
    const after = (await resend(t, failed.id)).body.data as Delivery;
    expect(after.status).toBe("succeeded");
    expect(after.attempts.at(-1)).toMatchObject({ n: 9, status_code: 200, resend: true });
    expect(after.next_attempt_at).toBeNull();
    // Each attempt records the signature header it carried, the resend's too.
    expect(after.attempts.map((a) => a.signature)).toEqual(
      receiver.requests.map((r) => r.headers["x-service-signature"]),
    );
  });

  it("an acknowledged resend of a pending delivery cancels its next retry", async () => {
    await createHook();
    receiver.reply(() => ({ status: 503 }));
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    expect((await onlyDelivery(t)).next_attempt_at).not.toBeNull();

    receiver.reply(() => ({ status: 204 }));
    const after = (await resend(t, (await onlyDelivery(t)).id)).body.data as Delivery;
    expect(after).toMatchObject({ status: "succeeded", next_attempt_at: null });
    await t.advance(86_400_000);
    expect(receiver.requests).toHaveLength(2);
    expect((await onlyDelivery(t)).attempts).toHaveLength(2);
  });

  it("a ladder attempt still on the wire when a resend settles its delivery is recorded after it, and retries nothing", async () => {
    await createHook();
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = () => {};
    const onTheWire = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    receiver.reply((_request, n) => {
      if (n !== 1) return { status: 204 };
      arrived();
      return { status: 503, after: gate };
    });
    emitTestEvent(t.sandbox.ctx);
    const advancing = t.advance(0);
    await onTheWire;

    const resent = (await resend(t, (await onlyDelivery(t)).id)).body.data as Delivery;
    expect(resent.status).toBe("succeeded");
    expect(resent.attempts.map((a) => [a.n, a.status_code, a.resend])).toEqual([[1, 204, true]]);
    release();
    await advancing;

    // The 503 of the first rung lands on a delivery that is no longer pending: it is recorded as
    // the second attempt and moves nothing, so no retry follows.
    const after = await onlyDelivery(t);
    expect(after).toMatchObject({ status: "succeeded", next_attempt_at: null });
    expect(after.attempts.map((a) => [a.n, a.status_code, a.resend])).toEqual([
      [1, 204, true],
      [2, 503, false],
    ]);
    await t.advance(86_400_000);
    expect(receiver.requests).toHaveLength(2);
  });

  it("an unacknowledged resend changes no status and uses up no rung of the ladder", async () => {
    await createHook();
    receiver.reply(() => ({ status: 500 }));
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const pending = await onlyDelivery(t);
    const due = pending.next_attempt_at;

    const after = (await resend(t, pending.id)).body.data as Delivery;
    expect(after).toMatchObject({ status: "pending", next_attempt_at: due });
    expect(after.attempts.map((a) => [a.n, a.status_code, a.resend])).toEqual([
      [1, 500, false],
      [2, 500, true],
    ]);

    // The ladder goes on as if the resend had not happened: the 2nd rung 5 s after the first
    // attempt, and the 3rd 1 m after that.
    await t.advance(5_000);
    const third = await onlyDelivery(t);
    expect(third.attempts.at(-1)).toMatchObject({ n: 3, resend: false });
    expect(Date.parse(third.next_attempt_at ?? "") - Date.parse(third.attempts.at(-1)?.at ?? "")).toBe(60_000);
    // The header is the rung: the resend between did not push it on.
    expect(receiver.requests.map((r) => [r.headers["x-msgctl-attempt"], r.headers["x-msgctl-resend"]])).toEqual([
      ["1", undefined],
      ["1", "1"],
      ["2", undefined],
    ]);
  });

  it("after resends, the ladder's attempts still carry X-Msgctl-Attempt 1-8, and a resend of a failed delivery 8", async () => {
    await createHook();
    receiver.reply(() => ({ status: 500 }));
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const id = (await onlyDelivery(t)).id;
    await resend(t, id);
    for (const wait of [5_000, 60_000, 600_000, 3_600_000, 14_400_000, 28_800_000, 43_200_000]) await t.advance(wait);
    expect((await onlyDelivery(t)).status).toBe("failed");
    await resend(t, id);
    const headers = receiver.requests.map(
      (r) => `${r.headers["x-msgctl-attempt"]}${r.headers["x-msgctl-resend"] ? "r" : ""}`,
    );
    expect(headers).toEqual(["1", "1r", "2", "3", "4", "5", "6", "7", "8", "8r"]);
  });

  it("a paused endpoint can be resent to; its abandoned delivery then succeeds", async () => {
    const hook = await createHook();
    receiver.reply(() => ({ status: 500 }));
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { enabled: false } });
    expect((await onlyDelivery(t)).status).toBe("abandoned");
    receiver.reply(() => ({ status: 204 }));
    expect((await resend(t, (await onlyDelivery(t)).id)).body.data.status).toBe("succeeded");
  });

  it("409 invalid_state when the endpoint was deleted; nothing is posted or recorded", async () => {
    const hook = await createHook();
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const delivery = await onlyDelivery(t);
    await t.api("DELETE", `/v1/webhooks/${hook.id}`);
    const res = await resend(t, delivery.id);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("invalid_state");
    expect(res.body.message).toContain("deleted");
    expect(receiver.requests).toHaveLength(1);
    expect(await onlyDelivery(t)).toEqual(delivery);
  });

  it("404 not_found for an unknown, malformed or another account's delivery", async () => {
    await createHook();
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const delivery = await onlyDelivery(t);
    for (const [id, key] of [
      ["00000000-0000-4000-8000-000000000000", KEY],
      ["nope", KEY],
      [delivery.id, OTHER_KEY],
    ] as const) {
      const res = await resend(t, id, key);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    }
    expect(receiver.requests).toHaveLength(1);
  });
});
