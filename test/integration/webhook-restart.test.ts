import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { createWebhook } from "../../src/domain/webhooks/index.js";
import { listDeliveries } from "../../src/domain/webhooks/index.js";
import { launchSandbox } from "../../src/runtime/launch-sandbox.js";
import { emitTestEvent } from "../helpers/events.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

describe("webhooks across a restart and on a real clock", () => {
  const receiver = useReceiver();

  it("endpoints, pending deliveries and their retry times survive a restart with the same database", async () => {
    receiver.requests.length = 0;
    receiver.reply((_request, n) => ({ status: n === 1 ? 500 : 200 }));
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-webhook-restart-")), "sandbox.db");
    const first = await launchSandbox({ db, clock: "manual", listen: false });
    const accountId = allAccounts(first.ctx)[0]?.id ?? "";
    const { webhook } = await createWebhook(first.ctx, accountId, { url: receiver.url });
    emitTestEvent(first.ctx);
    await first.scheduler.advance(0);
    await first.stop();

    const second = await launchSandbox({ db, clock: "manual", listen: false });
    await second.scheduler.advance(4_999);
    expect(receiver.requests).toHaveLength(1);
    await second.scheduler.advance(1);
    expect(receiver.requests).toHaveLength(2);
    const [delivery] = listDeliveries(second.ctx, accountId, {}).data;
    expect(delivery).toMatchObject({ webhook_id: webhook.id, status: "succeeded" });
    expect(delivery?.attempts.map((a) => a.n)).toEqual([1, 2]);
    expect(receiver.requests[1]?.headers["x-msgctl-attempt"]).toBe("2");
    await second.stop();
  });

  it("on a real clock, the tick loop makes first attempts as events are emitted", async () => {
    receiver.requests.length = 0;
    receiver.reply(() => ({ status: 204 }));
    const sandbox = await launchSandbox({ clock: "real", listen: false });
    const accountId = allAccounts(sandbox.ctx)[0]?.id ?? "";
    await createWebhook(sandbox.ctx, accountId, { url: receiver.url });
    const event = emitTestEvent(sandbox.ctx);
    await vi.waitFor(() => expect(listDeliveries(sandbox.ctx, accountId, {}).data[0]?.status).toBe("succeeded"));
    expect(receiver.requests.map((r) => r.headers["x-msgctl-event-id"])).toEqual([event.id]);
    await sandbox.stop();
  });
});
