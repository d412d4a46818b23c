import { describe, expect, it, vi } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { createWebhook, deliveryAgentLoaded } from "../../src/domain/webhooks/index.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("the delivery agent is ready before the first delivery", () => {
  const t = useSandbox();

  it("creating an endpoint loads undici, so the first attempt does not wait for it", async () => {
    expect(deliveryAgentLoaded()).toBe(false);
    const accountId = allAccounts(t.sandbox.ctx)[0]!.id;
    await createWebhook(t.sandbox.ctx, accountId, { url: "http://127.0.0.1:9/hook" });
    // Loading is a dynamic import: it ends a few turns later, with no delivery asked for.
    await vi.waitFor(() => expect(deliveryAgentLoaded()).toBe(true));
  });
});
