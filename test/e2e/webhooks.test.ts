import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";
import { emitTestEvent } from "../helpers/events.js";
import { useWebhooksCli } from "../helpers/webhooks-cli.js";

// The sandbox runs in this process on a real socket so the tests can emit events directly;
// every msgctl command is the real CLI in its own process, over HTTP and server-sent events.
describe("msgctl webhooks, end to end (README.md)", () => {
  const { t, receiver, flags, dir, cli } = useWebhooksCli();

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
