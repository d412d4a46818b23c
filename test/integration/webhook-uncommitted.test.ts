import { describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { createWebhook, listDeliveries } from "../../src/domain/webhooks/index.js";
import { launchSandbox } from "../../src/runtime/launch-sandbox.js";
import { emitTestEvent } from "../helpers/events.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

describe("the outbox's marks: a delivery waits for its batch's commit", () => {
  const receiver = useReceiver();
  // The deliveries whose first attempt must wait for a commit (webhooks/deliveries.ts, behind the module's face).
  const marked = (sandbox: { ctx: { caches: Map<string, Map<unknown, unknown>> } }) => [
    ...(sandbox.ctx.caches.get("webhook-uncommitted-deliveries")?.keys() ?? []),
  ];

  it("is uncommitted until its batch commits, and a transaction that threw leaves no mark behind", async () => {
    const sandbox = await launchSandbox({ clock: "manual", listen: false });
    try {
      const { ctx } = sandbox;
      const accountId = allAccounts(ctx)[0]?.id ?? "";
      await createWebhook(ctx, accountId, { url: receiver.url });
      await ctx.db.committed();
      emitTestEvent(ctx);
      const [delivery] = listDeliveries(ctx, accountId, {}).data;
      expect(marked(sandbox)).toEqual([delivery?.id]);
      // An event and its delivery, then a rule broken: both undone with the savepoint.
      expect(() =>
        ctx.db.transaction(() => {
          emitTestEvent(ctx);
          throw new Error("rule broken");
        }),
      ).toThrow("rule broken");
      expect(listDeliveries(ctx, accountId, {}).data).toHaveLength(1);
      expect(marked(sandbox)).toHaveLength(2);
      await ctx.db.committed();
      // The committed delivery's mark and the undone one's both go with the commit: nothing is kept for good.
      expect(marked(sandbox)).toEqual([]);
    } finally {
      await sandbox.stop();
    }
  });
});
