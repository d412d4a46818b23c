import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import { runCli, useServe } from "../helpers/cli.js";
import { scenarioFile, useApp, runDir } from "../helpers/scenario-run.js";

describe("msgctl run against `msgctl serve --clock manual`", { timeout: 120_000 }, () => {
  const sandbox = useServe();
  const app = useApp();
  const everyKind = () =>
    scenarioFile(
      "every-kind.yaml",
      `name: every step kind
steps:
  - webhook: { url: "${app.url}/hooks", secret: "whsec_test_0123456789abcdef" }
    save: hook
  - send: { to: "+14155550191", from: "{{numbers.0}}", text: "Your order shipped" }
    save: msg
  - advance: 5s
  - expect:
      event: message.read
      match: { message_id: "{{msg.id}}" }
      delivered: true
  - expect: { message: "{{msg.id}}", status: read, match: { text: "Your order shipped" } }
  - expect:
      delivery: { event: message.sent, match: { message_id: "{{msg.id}}" }, webhook: "{{hook.id}}" }
      status: succeeded
      attempts: [{ status_code: 204 }]
  - wait: { message: { id: "{{msg.id}}", status: delivered } }
  - simulate: { inbound: { from: "+14155550191", to: "{{numbers.0}}", text: "thanks" } }
    save: inbound
  - settle: {}
  - http: { method: GET, url: "${app.url}/api/last-inbound", expect_status: 200, expect_json: { text: "thanks" } }
  - wait: { event: { type: message.received, match: { message_id: "{{inbound.id}}" }, delivered: true } }
  - simulate: { reaction: { id: "{{msg.id}}", from: "+14155550191", reaction: love } }
  - expect: { event: message.reaction, match: { message_id: "{{msg.id}}", reaction: love } }
  - otp: { create: { phone: "+14155550191" } }
    save: challenge
  - otp: { text: { id: "{{challenge.id}}" } }
  - wait: { otp: { id: "{{challenge.id}}", status: verified } }
  - otp: { consume: { id: "{{challenge.id}}" } }
    save: consumed
  - http: { method: POST, url: "${app.url}/hooks", json: { type: note, n: "{{consumed.status}}" }, expect_status: 204 }
`,
    );

  it("a file using every step kind passes: exit 0, --json names each step", async () => {
    const result = await sandbox.cli("run", everyKind(), "--json");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ passed: 1, failed: 0, skipped: 0 });
    expect(report.files[0]).toMatchObject({ name: "every step kind", passed: true });
    expect(report.files[0].steps.map((step: { kind: string }) => step.kind)).toEqual([
      "webhook",
      "send",
      "advance",
      "expect",
      "expect",
      "expect",
      "wait",
      "simulate",
      "settle",
      "http",
      "wait",
      "simulate",
      "expect",
      "otp",
      "otp",
      "wait",
      "otp",
      "http",
    ]);
    expect(report.files[0].steps.every((step: { passed: boolean }) => step.passed)).toBe(true);
    expect(report.files[0].steps[0]).toEqual({
      index: 0,
      kind: "webhook",
      passed: true,
      message: expect.stringMatching(/^endpoint \S+ for http:\/\/127\.0\.0\.1:\d+\/hooks$/),
    });
  });

  it("each file runs in an account of its own, deleted once it passed", async () => {
    const before = await sandbox.json("accounts", "list");
    const result = await sandbox.cli("run", everyKind());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^PASS {2}every step kind {2}.*every-kind\.yaml {2}\(\d+\.\d s\)$/m);
    expect(result.stdout).toMatch(/^1 passed, 0 failed \(\d+\.\d s\)$/m);
    expect((await sandbox.json("accounts", "list")).length).toBe(before.length);
  });

  it("a webhook halfway up its ladder: within advances the manual clock until the retry happened", async () => {
    app.answer = 500;
    try {
      const path = scenarioFile(
        "ladder.yaml",
        `name: ladder
steps:
  - webhook: { url: "${app.url}/hooks", events: [message.received] }
  - simulate: { inbound: { from: "+14155550191", to: "{{numbers.0}}", text: "hi" } }
    save: inbound
  - expect:
      delivery: { event: message.received, match: { message_id: "{{inbound.id}}" } }
      status: pending
      attempts: [{ n: 1, status_code: 500 }]
  - expect:
      delivery: { event: message.received, match: { message_id: "{{inbound.id}}" } }
      attempts: 2
      within: 1m
  - expect: { event: message.received, match: { message_id: "{{inbound.id}}" }, delivered: false }
`,
      );
      const clockBefore = Date.parse((await sandbox.json("clock")).now);
      const result = await sandbox.cli("run", path, "--json");
      expect(result.code, result.stdout + result.stderr).toBe(0);
      // The first retry is due 5 s after the first attempt; the clock moved in steps of 600 ms.
      const moved = Date.parse((await sandbox.json("clock")).now) - clockBefore;
      expect(moved).toBeGreaterThanOrEqual(5_000);
      expect(moved).toBeLessThan(5_000 + 600 + 100);
    } finally {
      app.answer = 204;
    }
  });

  it("restore: the file starts from a snapshot (the whole sandbox) and runs as the connection's account", async () => {
    const base = sandbox.serve.ready.base_url;
    const headers = {
      authorization: `Bearer ${sandbox.serve.ready.accounts[0]?.api_key}`,
      "content-type": "application/json",
    };
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: "POST", headers, body: JSON.stringify(body) }).then((r) => r.json());
    await post("/v1/webhooks", { url: `${app.url}/hooks`, events: ["message.received"] });
    await post("/sandbox/v1/snapshots", { name: "app-hooked" });
    // After the save: gone once the file restores.
    const later = (await post("/v1/webhooks", { url: `${app.url}/later` })) as { data: { id: string } };
    const path = scenarioFile(
      "restore.yaml",
      `name: from a snapshot
restore: app-hooked
steps:
  - simulate: { inbound: { from: "+14155550191", to: "{{numbers.0}}", text: "restored" } }
    save: inbound
  - expect: { event: message.received, match: { message_id: "{{inbound.id}}", to: "+14155550101" }, delivered: true }
  - http: { url: "${app.url}/api/last-inbound", expect_json: { text: "restored" } }
`,
    );
    const result = await sandbox.cli("run", path, "--json");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const gone = await fetch(`${base}/v1/webhooks/${later.data.id}`, { headers });
    expect(gone.status).toBe(404);

    // An exported snapshot, named by its path, restores into a sandbox --serve starts.
    const exported = await fetch(`${base}/sandbox/v1/snapshots/app-hooked/export`, { headers });
    writeFileSync(join(runDir, "app-hooked.snapshot"), Buffer.from(await exported.arrayBuffer()));
    writeFileSync(path, readFileSync(path, "utf8").replace("restore: app-hooked", "restore: ./app-hooked.snapshot"));
    const served = await runCli(["run", path, "--serve", "--port", "0", "--otp-port", "0"]);
    expect(served.code, served.stdout + served.stderr).toBe(0);
  });
});

describe("msgctl run on a real clock, with --serve, --schema", { timeout: 120_000 }, () => {
  const sandbox = useServe(["--clock", "real"]);

  it("advance on a real clock fails saying so", async () => {
    const path = scenarioFile("real.yaml", "steps:\n  - advance: 1s\n");
    const result = await sandbox.cli("run", path, "--json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).files[0].steps[0].message).toMatch(
      /^advance needs a manual clock, and this sandbox's clock is real/,
    );
  });

  it("--serve starts a sandbox on a manual clock for the run and stops it", async () => {
    const path = scenarioFile(
      "served.yaml",
      'steps:\n  - send: { to: "+14155550191", from: "{{numbers.0}}", text: "x" }\n    save: m\n  - advance: 5s\n  - expect: { message: "{{m.id}}", status: read }\n',
    );
    const result = await runCli(["run", path, "--serve", "--port", "0", "--otp-port", "0"]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toMatch(/sandbox on http:\/\/127\.0\.0\.1:\d+ and http:\/\/127\.0\.0\.1:\d+, manual clock/);
    expect(result.stdout).toMatch(/^1 passed, 0 failed/m);
  });

  it("--schema prints the format's JSON Schema", async () => {
    const result = await runCli(["run", "--schema"]);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.title).toBe("msgctl scenario file");
    expect(schema.properties.steps.items.anyOf.map((step: { title: string }) => step.title)).toEqual([
      "send",
      "simulate",
      "otp",
      "webhook",
      "advance",
      "settle",
      "wait",
      "http",
      "expect",
      "chaos",
      "check",
    ]);
  });
});
