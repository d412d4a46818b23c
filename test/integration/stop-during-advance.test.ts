import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/index.js";

/**
 * `stop()` while an advance waits on a webhook receiver that does not answer (docs/sandbox.md:
 * attempts in flight get 2 seconds): it spun forever on the aborted attempt, still due, and a
 * test suite's `afterAll(stop)` hung its worker. Now the advance ends where it was, the attempt
 * stays due for the next start, and `stop()` returns after the grace.
 */
describe("stop() during an advance", () => {
  let receiver: Server;
  let url = "";
  beforeAll(async () => {
    // Takes every request and never answers.
    receiver = createServer(() => {});
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("returns after the 2 s grace; the advance resolves where it stood", async () => {
    const sandbox = await startSandbox();
    await sandbox.client.webhooks.create({ url });
    await sandbox.client.messages.send({ to: "+14155550191", from_handle: "+14155550101", text: "hi" });
    const startedAt = sandbox.clock.now().getTime();
    const advancing = sandbox.clock.advance("1s");
    // The first attempt is in flight once the receiver holds its request.
    await new Promise<void>((resolve) => receiver.once("request", () => resolve()));
    const began = performance.now();
    await sandbox.stop();
    expect(performance.now() - began).toBeLessThan(5_000);
    const reached = await advancing;
    expect(reached.getTime()).toBeGreaterThanOrEqual(startedAt);
    expect(reached.getTime()).toBeLessThan(startedAt + 1_000);
  }, 15_000);
});
