import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { listenSecretPath } from "../../src/cli/listen-secret.js";
import { verifyWebhook } from "../../src/index.js";
import { runCli } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { emitTestEvent } from "../helpers/events.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

// The sandbox runs in this process on a real socket so the tests can emit events directly;
// every msgctl command is the real CLI in its own process, over HTTP and server-sent events.
describe("msgctl webhooks, end to end (README.md)", () => {
  const t = useSandbox({ socket: true });
  const receiver = useReceiver();
  let flags: string[];
  const dir = mkdtempSync(join(tmpdir(), "msgctl-webhooks-"));
  const cli = (...args: string[]) => runCli([...args, ...flags], { cwd: dir });

  beforeAll(() => {
    flags = ["--base-url", t.sandbox.baseUrl, "--api-key", KEY];
  });
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    receiver.reply(() => ({ status: 204 }));
  });

  it("create, list, get, update, rotate and delete, as JSON for scripts", async () => {
    const created = await cli(
      "webhooks",
      "create",
      "--url",
      receiver.url,
      "--events",
      "message.sent,message.read",
      "--json",
    );
    expect(created.code).toBe(0);
    const hook = JSON.parse(created.stdout);
    expect(hook).toMatchObject({
      url: receiver.url,
      events: ["message.sent", "message.read"],
      enabled: true,
      other_webhooks: [],
    });
    expect(hook.secret).toMatch(/^whsec_/);

    const list = JSON.parse((await cli("webhooks", "list", "--json")).stdout);
    expect(list.map((w: { id: string }) => w.id)).toEqual([hook.id]);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
    const one = JSON.parse((await cli("webhooks", "get", hook.id, "--json")).stdout);
    expect(one).not.toHaveProperty("secret");

    const paused = JSON.parse(
      (await cli("webhooks", "update", hook.id, "--disable", "--events", "message.failed", "--json")).stdout,
    );
    expect(paused).toMatchObject({ enabled: false, events: ["message.failed"] });
    expect(paused).not.toHaveProperty("secret");
    const rotated = JSON.parse((await cli("webhooks", "rotate", hook.id, "--json")).stdout);
    expect(rotated.secret).not.toBe(hook.secret);
    expect(JSON.parse((await cli("webhooks", "delete", hook.id, "--json")).stdout)).toEqual({
      id: hook.id,
      deleted: true,
    });
    expect(JSON.parse((await cli("webhooks", "list", "--json")).stdout)).toEqual([]);
  });

  it("prints people-friendly output without --json, with the secret and a note on other endpoints", async () => {
    await cli("webhooks", "create", "--url", receiver.url);
    const created = await cli("webhooks", "create", "--url", `${receiver.url}?second`);
    expect(created.stdout).toContain("Webhook created.");
    expect(created.stdout).toMatch(/secret\s+whsec_/);
    expect(created.stdout).toContain("Events also go to 1 other endpoint(s)");
    const list = await cli("webhooks", "list");
    expect(list.stdout).toMatch(/ID\s+URL\s+EVENTS\s+ENABLED\s+CREATED/);
    expect(list.stdout).not.toContain("whsec_");
  });

  it("deliveries shows each delivery with its attempts, filtered by endpoint and status", async () => {
    receiver.reply(() => ({ status: 500 }));
    const hook = JSON.parse((await cli("webhooks", "create", "--url", receiver.url, "--json")).stdout);
    const event = emitTestEvent(t.sandbox.ctx);
    await t.advance(5_000);
    const json = JSON.parse(
      (await cli("webhooks", "deliveries", "--webhook", hook.id, "--status", "pending", "--json")).stdout,
    );
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ webhook_id: hook.id, event_id: event.id, status: "pending" });
    expect(json[0].attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500]);
    const human = await cli("webhooks", "deliveries");
    expect(human.stdout).toMatch(/ID\s+EVENT\s+WEBHOOK\s+STATUS\s+ATTEMPTS\s+LAST\s+NEXT ATTEMPT/);
    expect(human.stdout).toMatch(/message\.sent\s+\w{8}\s+pending\s+2\s+500/);
    expect((await cli("webhooks", "deliveries", "--status", "done")).code).toBe(1);
  });

  it("tail streams every event live, one JSON object per line with --json, until interrupted", async () => {
    const tail = spawnCli(["webhooks", "tail", "--json", "--events", "message.sent,message.read", ...flags]);
    await tail.stderrContains("Tailing events");
    const sent = emitTestEvent(t.sandbox.ctx, "message.sent", { text: "one" });
    emitTestEvent(t.sandbox.ctx, "message.delivered");
    const read = emitTestEvent(t.sandbox.ctx, "message.read");
    await tail.line((line) => line.includes(read.id), "message.read line");
    expect(tail.lines.map((line) => JSON.parse(line))).toEqual([
      { id: sent.id, seq: sent.seq, type: "message.sent", created_at: expect.any(String), payload: sent.payload },
      { id: read.id, seq: read.seq, type: "message.read", created_at: expect.any(String), payload: read.payload },
    ]);
    expect(await tail.stop("SIGINT")).toBe(0);
  });

  it("tail prints pretty lines by default", async () => {
    const tail = spawnCli(["webhooks", "tail", ...flags]);
    await tail.stderrContains("Tailing events");
    const event = emitTestEvent(t.sandbox.ctx, "conversation.typing", { conversation_id: "c-1", typing: true });
    const line = await tail.line((l) => l.includes(event.id));
    expect(line).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3}\s+conversation\.typing\s+\S+\s+\{"message_id":"[^"]+","conversation_id":"c-1","typing":true\}$/,
    );
    expect(await tail.stop("SIGTERM")).toBe(0);
  });

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

  it("verify explains why a real delivery's signature does or does not verify", async () => {
    const hook = JSON.parse((await cli("webhooks", "create", "--url", receiver.url, "--json")).stdout);
    emitTestEvent(t.sandbox.ctx, "message.sent", { text: "verify me" });
    await t.advance(0);
    const [request] = receiver.requests;
    const header = String(request?.headers["x-service-signature"]);
    const raw = join(dir, "body.json");
    writeFileSync(raw, request?.body ?? "");
    const pretty = join(dir, "pretty.json");
    writeFileSync(pretty, JSON.stringify(JSON.parse(request?.body ?? ""), null, 2));
    const verify = (...args: string[]) => runCli(["webhooks", "verify", "--header", header, ...args]);

    const good = await verify("--secret", hook.secret, "--body-file", raw);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain("✔ Verified");
    const wrong = await verify("--secret", "whsec_not_the_right_one_0000", "--body-file", raw);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain("wrong secret");
    // The explanation is said once, on stdout: nothing is repeated as an error on stderr.
    expect(wrong.stderr).toBe("");
    const reserialised = await verify("--secret", hook.secret, "--body-file", pretty, "--json");
    expect(reserialised.code).toBe(1);
    // One JSON object: the error, with the diagnosis in it.
    expect(JSON.parse(reserialised.stdout)).toMatchObject({
      error: "signature_mismatch",
      message: expect.any(String),
      ok: false,
      reason: "signature_mismatch",
      cause: "reserialised_body",
    });
    const stale = await verify(
      "--secret",
      hook.secret,
      "--body-file",
      raw,
      "--at",
      new Date(Date.now() + 3_600_000).toISOString(),
    );
    expect(stale.code).toBe(1);
    expect(stale.stdout).toContain("stale timestamp");
    expect(stale.stdout).toContain("only the time is off");
    const fullLine = await runCli([
      "webhooks",
      "verify",
      "--header",
      `X-service-Signature: ${header}`,
      "--secret",
      hook.secret,
      "--body-file",
      raw,
    ]);
    expect(fullLine.code).toBe(0);
  });

  it("deliveries get ID --body prints the delivered body byte for byte, which verify takes as it is", async () => {
    const hook = JSON.parse((await cli("webhooks", "create", "--url", receiver.url, "--json")).stdout);
    emitTestEvent(t.sandbox.ctx, "message.sent", { text: "save me: é ✓" });
    await t.advance(0);
    const [request] = receiver.requests;
    const [delivery] = JSON.parse((await cli("webhooks", "deliveries", "--json")).stdout);

    const body = await cli("webhooks", "deliveries", "get", delivery.id, "--body");
    expect(body.code, body.stderr).toBe(0);
    expect(body.stdout).toBe(request?.body);

    const shown = await cli("webhooks", "deliveries", "get", delivery.id);
    expect(shown.stdout).toContain(String(request?.headers["x-service-signature"]));
    expect(shown.stdout).toContain(`msgctl webhooks deliveries get ${delivery.id} --body > body.json`);
    expect(JSON.parse((await cli("webhooks", "deliveries", "get", delivery.id, "--json")).stdout)).toMatchObject({
      id: delivery.id,
      attempts: [{ n: 1, signature: request?.headers["x-service-signature"] }],
    });

    const saved = join(dir, "saved-body.json");
    writeFileSync(saved, body.stdout);
    const signature = String(request?.headers["x-service-signature"]);
    const verified = await runCli([
      "webhooks",
      "verify",
      "--secret",
      hook.secret,
      "--header",
      signature,
      "--body-file",
      saved,
    ]);
    expect(verified.code, verified.stdout).toBe(0);

    const unknown = await cli("webhooks", "deliveries", "get", "00000000-0000-4000-8000-000000000000", "--body");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toContain("not_found");
  });

  it("usage errors exit 2; API errors exit 1 with code and request id", async () => {
    expect((await cli("webhooks", "create")).code).toBe(2);
    const nothing = await cli("webhooks", "update", "00000000-0000-4000-8000-000000000000");
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Nothing to change");
    expect((await cli("webhooks", "update", "x", "--enable", "--disable")).code).toBe(2);
    expect(
      (await runCli(["webhooks", "verify", "--secret", "s", "--header", "h", "--body-file", join(dir, "missing")]))
        .code,
    ).toBe(2);
    const unknown = await cli("webhooks", "get", "00000000-0000-4000-8000-000000000000");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/not_found: .+\(request id req_/);
    const badEvent = await cli("webhooks", "create", "--url", receiver.url, "--events", "message.exploded");
    expect(badEvent.code).toBe(1);
    expect(badEvent.stderr).toContain('unknown event "message.exploded"');
  });
});
