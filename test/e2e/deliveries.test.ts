import { describe, expect, it } from "vitest";
import { useServe } from "../helpers/cli.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

// The built bundle loads undici as a chunk of its own on the first delivery to a host name:
// this runs that path in the shipped `msgctl serve`, not in the sources.
describe("the built sandbox delivers to an endpoint named by a host name (pinned connection)", () => {
  const sandbox = useServe();
  const receiver = useReceiver();

  it("a `localhost` URL gets its delivery, with its own Host header", async () => {
    const port = new URL(receiver.url).port;
    const hook = await sandbox.json(
      "webhooks",
      "create",
      "--url",
      `http://localhost:${port}/hook`,
      "--events",
      "message.received",
    );
    await sandbox.json("simulate", "inbound", "--from", "+14155550191", "--to", "+14155550101", "--text", "hello");
    await expect.poll(() => receiver.requests.length, { timeout: 10_000 }).toBe(1);
    expect(receiver.requests[0]?.headers.host).toBe(`localhost:${port}`);
    const [delivery] = await sandbox.json("webhooks", "deliveries", "--webhook", hook.id);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: [{ n: 1, status_code: 204 }] });
  });

  it("`webhooks resend` attempts a delivery again and shows the new attempt", async () => {
    const before = receiver.requests.length;
    const [delivery] = await sandbox.json("webhooks", "deliveries", "--limit", "1");
    const resent = await sandbox.json("webhooks", "resend", delivery.id);
    expect(resent).toMatchObject({ id: delivery.id, status: "succeeded" });
    expect(resent.attempts.at(-1)).toMatchObject({ n: 2, status_code: 204, resend: true });
    expect(receiver.requests).toHaveLength(before + 1);
    expect(receiver.requests.at(-1)?.headers["x-msgctl-resend"]).toBe("1");

    const human = await sandbox.cli("webhooks", "resend", delivery.id);
    expect(human.stdout).toContain("Resent");
    expect(human.stdout).toContain("attempt 3: 204");
    const missing = await sandbox.cli("webhooks", "resend", "00000000-0000-4000-8000-000000000000");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("not_found");
  });
});
