import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { listenSecretPath } from "../../src/cli/listen-secret.js";
import { verifyWebhook } from "../../src/index.js";
import { spawnCli } from "../helpers/cli-process.js";
import { emitTestEvent } from "../helpers/events.js";
import { useWebhooksCli } from "../helpers/webhooks-cli.js";

// The sandbox runs in this process on a real socket so the tests can emit events directly;
// every msgctl command is the real CLI in its own process, over HTTP and server-sent events.
describe("msgctl webhooks, end to end (README.md)", () => {
  const { t, receiver, flags, dir, cli } = useWebhooksCli();

  it("listen creates an endpoint, prints its secret and every delivery, and deletes it on Ctrl-C", async () => {
    receiver.reply((_request, n) => ({ status: n === 1 ? 503 : 200 }));
    const listen = spawnCli(["webhooks", "listen", "--forward-to", receiver.url, "--json", ...flags]);
    const ready = JSON.parse(await listen.line((line) => line.includes('"ready"'), "ready line"));
    expect(ready.webhook).toMatchObject({ url: receiver.url, enabled: true, secret: expect.stringMatching(/^whsec_/) });
    expect((await t.api("GET", "/v1/webhooks")).body.data.map((w: { id: string }) => w.id)).toEqual([ready.webhook.id]);

    const event = emitTestEvent(t.sandbox.ctx);
    await t.advance(5_000);
    await listen.line((line) => line.includes('"n":2'), "second attempt");
    const attempts = listen.lines.slice(1).map((line) => JSON.parse(line));
    expect(
      attempts.map((a) => [a.event, a.delivery.event_id, a.delivery.status, a.delivery.attempts.at(-1).status_code]),
    ).toEqual([
      ["attempt", event.id, "pending", 503],
      ["attempt", event.id, "succeeded", 200],
    ]);
    // What the receiver got verifies with the secret listen printed.
    for (const request of receiver.requests) {
      expect(verifyWebhook(request.body, request.headers["x-service-signature"], ready.webhook.secret).ok).toBe(true);
    }

    expect(await listen.stop("SIGINT")).toBe(0);
    expect(JSON.parse(listen.lines.at(-1) ?? "")).toEqual({ event: "deleted", id: ready.webhook.id });
    expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
  });

  it("listen prints each delivery with its status code and latency for people", async () => {
    receiver.reply(() => ({ status: 202, delayMs: 30 }));
    const listen = spawnCli(["webhooks", "listen", "--forward-to", receiver.url, "--events", "message.sent", ...flags]);
    await listen.line((line) => line.startsWith("Ready!"));
    const secretLine = await listen.line((line) => line.startsWith("Webhook signing secret:"));
    expect(secretLine).toMatch(/whsec_\w+/);
    emitTestEvent(t.sandbox.ctx, "message.read");
    const event = emitTestEvent(t.sandbox.ctx, "message.sent");
    const line = await listen.line((l) => l.includes(event.id));
    expect(line).toMatch(/^✔ \d\d:\d\d:\d\d\.\d{3}\s+message\.sent\s+202\s+\d+ ms\s+attempt 1\s+succeeded/);
    expect(Number(/(\d+) ms/.exec(line)?.[1])).toBeGreaterThanOrEqual(25);
    expect(listen.lines.some((l) => l.includes("message.read"))).toBe(false);
    expect(await listen.stop("SIGTERM")).toBe(0);
    expect(listen.lines.at(-1)).toMatch(/^Deleted webhook /);
  });

  it("listen keeps one secret per state directory from run to run, and --secret sets it", async () => {
    const stateDir = mkdtempSync(join(tmpdir(), "msgctl-listen-state-"));
    const secretOf = async (extra: string[]) => {
      const listen = spawnCli(["webhooks", "listen", "--forward-to", receiver.url, ...extra, ...flags], { cwd: dir });
      const line = await listen.line((l) => l.startsWith("Webhook signing secret:"));
      await listen.line((l) => l.startsWith("Ctrl-C to stop"));
      expect(await listen.stop("SIGINT")).toBe(0);
      return { secret: /whsec_\w+|\S{16,}(?= \(endpoint)/.exec(line)?.[0], lines: listen.lines };
    };
    const first = await secretOf(["--state-dir", stateDir]);
    const second = await secretOf(["--state-dir", stateDir]);
    expect(first.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(second.secret).toBe(first.secret);
    expect(readFileSync(listenSecretPath(stateDir), "utf8").trim()).toBe(first.secret);
    expect(second.lines).toContain(
      `The same secret on every listen run here: it is kept in ${listenSecretPath(stateDir)}.`,
    );
    // Another state directory, another secret; --secret is used as given.
    const elsewhere = await secretOf(["--state-dir", mkdtempSync(join(tmpdir(), "msgctl-listen-state-"))]);
    expect(elsewhere.secret).not.toBe(first.secret);
    const given = await secretOf(["--state-dir", stateDir, "--secret", "whsec_chosen_by_the_app_0001"]);
    expect(given.secret).toBe("whsec_chosen_by_the_app_0001");
    expect(readFileSync(listenSecretPath(stateDir), "utf8").trim()).toBe(first.secret);
  });

  it("listen rows name the message and keep their columns when no answer came", async () => {
    const listen = spawnCli(["webhooks", "listen", "--forward-to", "http://127.0.0.1:9/hook", ...flags], { cwd: dir });
    await listen.line((line) => line.startsWith("Ctrl-C to stop"));
    const event = emitTestEvent(t.sandbox.ctx, "message.sent");
    const messageId = (event.payload as { message_id: string }).message_id;
    const line = await listen.line((l) => l.includes(event.id));
    expect(line).toMatch(
      new RegExp(
        `^✘ \\d\\d:\\d\\d:\\d\\d\\.\\d{3}  message\\.sent {8}  ERR  [ \\d]{5} ms  attempt 1  pending next attempt \\S+  message ${messageId}  event ${event.id}  \\S`,
      ),
    );
    expect(await listen.stop("SIGINT")).toBe(0);
  });

  it("a listen row whose attempt got a 4xx ends with the first line of the receiver's answer", async () => {
    receiver.reply(() => ({ status: 400, body: "invalid signature\nexpected v1=…" }));
    const listen = spawnCli(["webhooks", "listen", "--forward-to", receiver.url, ...flags], { cwd: dir });
    await listen.line((line) => line.startsWith("Ctrl-C to stop"));
    const event = emitTestEvent(t.sandbox.ctx, "message.sent");
    const line = await listen.line((l) => l.includes(event.id));
    expect(line).toMatch(/^✘ \S+  message\.sent {10}400  /);
    expect(line.endsWith(`event ${event.id}  receiver answered 400: invalid signature`)).toBe(true);
    expect(await listen.stop("SIGINT")).toBe(0);
  });

  it("listen refuses a URL the sandbox refuses, creating nothing (exit 1)", async () => {
    const result = await cli("webhooks", "listen", "--forward-to", "http://169.254.169.254/");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("invalid_url");
    expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
  });
});
