import { beforeAll, describe, expect, it } from "vitest";
import { ApiError, createClient, verifyWebhook, type MsgctlClient } from "../../src/index.js";
import { readEventStream } from "../../src/cli/event-stream.js";
import type { Delivery } from "../../src/contract/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

describe("the typed client and the exported verifyWebhook, against real deliveries", () => {
  const t = useSandbox({ socket: true });
  const receiver = useReceiver();
  let client: MsgctlClient;
  beforeAll(() => {
    client = createClient({ baseUrl: t.sandbox.baseUrl, apiKey: KEY });
  });

  it("covers every endpoint operation", async () => {
    const { webhook, replayed } = await client.webhooks.create(
      { url: receiver.url, events: ["message.sent"] },
      { idempotencyKey: "k1" },
    );
    expect(replayed).toBe(false);
    expect((await client.webhooks.create({ url: receiver.url }, { idempotencyKey: "k1" })).replayed).toBe(true);
    expect((await client.webhooks.list()).data.map((w) => w.id)).toEqual([webhook.id]);
    expect(await client.webhooks.get(webhook.id)).not.toHaveProperty("secret");
    expect((await client.webhooks.update(webhook.id, { enabled: false })).enabled).toBe(false);
    expect((await client.webhooks.rotateSecret(webhook.id)).secret).toMatch(/^whsec_/);
    expect(await client.webhooks.delete(webhook.id)).toEqual({ id: webhook.id, deleted: true });
    await expect(client.webhooks.get(webhook.id)).rejects.toMatchObject({ status: 404, code: "not_found" });
    await expect(client.webhooks.create({ url: "http://10.0.0.1/" })).rejects.toBeInstanceOf(ApiError);
  });

  it("reads the retry ladder the deliveries climb", async () => {
    expect(await client.webhooks.retryLadder()).toEqual({
      attempts: 8,
      waits_ms: [5_000, 60_000, 600_000, 3_600_000, 14_400_000, 28_800_000, 43_200_000],
    });
  });

  it("real deliveries verify with verifyWebhook from the package entry; the attempt stream reports them", async () => {
    const { webhook } = await client.webhooks.create({ url: receiver.url });
    const abort = new AbortController();
    const stream = await client.webhooks.attempts({ webhookId: webhook.id, signal: abort.signal });
    const seen: Delivery[] = [];
    const reading = (async () => {
      try {
        for await (const delivery of readEventStream<Delivery>(stream)) seen.push(delivery);
      } catch {
        // aborted
      }
    })();
    const events = [emitTestEvent(t.sandbox.ctx, "message.sent"), emitTestEvent(t.sandbox.ctx, "message.delivered")];
    await t.advance(0);
    expect(receiver.requests).toHaveLength(2);
    for (const request of receiver.requests) {
      const result = verifyWebhook(request.body, request.headers["x-service-signature"], webhook.secret);
      expect(result.ok).toBe(true);
    }
    expect(receiver.requests.map((r) => JSON.parse(r.body).type)).toEqual(events.map((e) => e.type));
    const listed = await client.webhooks.deliveries({ webhookId: webhook.id, status: "succeeded" });
    expect(listed.data).toHaveLength(2);
    expect(await client.webhooks.delivery(listed.data[0]?.id ?? "")).toEqual(listed.data[0]);
    await expect.poll(() => seen.length).toBe(2);
    abort.abort();
    await reading;
    expect(seen.map((d) => d.event_id)).toEqual(events.map((e) => e.id));
  });
});
