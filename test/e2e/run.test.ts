import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { runCli, useServe } from "../helpers/cli.js";

/**
 * A small app of the user's: takes webhooks at /hooks (answering `status` of /api/answer, 204 by
 * default), remembers the last inbound text, and serves it at GET /api/last-inbound.
 */
function useApp() {
  const app = { url: "", hooks: 0, answer: 204 };
  let server: Server;
  let lastInbound: unknown = null;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.method === "POST" && req.url === "/hooks") {
          app.hooks++;
          const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          if (event.type === "message.received") lastInbound = { text: event.text, from: event.from };
          res.writeHead(app.answer).end();
        } else if (req.url === "/api/last-inbound") {
          res.writeHead(lastInbound ? 200 : 404, { "content-type": "application/json" });
          res.end(JSON.stringify(lastInbound ?? { error: "nothing yet" }));
        } else res.writeHead(404).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  return app;
}

const dir = mkdtempSync(join(tmpdir(), "msgctl-run-"));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const xsd = readFileSync(resolve(import.meta.dirname, "../fixtures/junit.xsd"), "utf8");

describe("msgctl run against `msgctl serve --clock manual`", { timeout: 120_000 }, () => {
  const sandbox = useServe();
  const app = useApp();
  const everyKind = () =>
    file(
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
      const path = file(
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

  it("an unmet expectation: exit 1, the report names the step, what was expected and what was seen; the file goes on", async () => {
    const path = file(
      "fails.yaml",
      `name: read receipts off
steps:
  - send: { to: "+14155550172", from: "{{numbers.0}}", text: "hello" }
    save: msg
  - advance: 10s
  - expect: { event: message.read, match: { message_id: "{{msg.id}}" } }
  - expect: { message: "{{msg.id}}", status: read }
  - expect: { message: "{{msg.id}}", status: delivered }
  - http: { url: "${app.url}/api/nothing", expect_status: 200 }
`,
    );
    const junit = join(dir, "reports", "junit.xml");
    const result = await sandbox.cli("run", path, "--junit", junit);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}read receipts off/m);
    expect(result.stdout).toContain("steps[2] expect: no matching message.read event");
    expect(result.stdout).toContain('expected: a message.read event whose payload contains {"message_id":"');
    // What was seen: the file's latest events, the message's history.
    expect(result.stdout).toMatch(/seen:[\s\S]*message\.delivered at /);
    expect(result.stdout).toMatch(/steps\[3\] expect: message \S+ is delivered/);
    expect(result.stdout).toMatch(/its history:\n\s+\S+ message\.sent\n\s+\S+ message\.delivered/);
    expect(result.stdout).toMatch(
      /steps\[5\] http: GET http:\/\/127\.0\.0\.1:\d+\/api\/nothing: 404, status: expected 200, seen 404/,
    );
    expect(result.stdout).not.toContain("steps[4]");
    expect(result.stdout).toMatch(/its account run-read-receipts-off-\w+ is kept for a look \(api key sk_test_/);
    expect(result.stdout).toMatch(/^0 passed, 1 failed/m);

    const xml = readFileSync(junit, "utf8");
    const checked = await validateXML({ xml: [{ fileName: "junit.xml", contents: xml }], schema: [xsd] });
    expect(checked.errors).toEqual([]);
    expect(xml.match(/<failure /g)).toHaveLength(3);
    expect(xml).toContain('<testcase name="read receipts off"');
  });

  it("--bail stops at the first unmet expectation: no later step or file runs", async () => {
    const first = file("bail-1.yaml", "steps:\n  - expect: { event: message.read }\n  - advance: 1s\n");
    const second = file("bail-2.yaml", "steps:\n  - advance: 1s\n");
    const result = await sandbox.cli("run", first, second, "--bail", "--json");
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ passed: 0, failed: 1, skipped: 1 });
    expect(report.files).toHaveLength(1);
    expect(report.files[0].steps).toEqual([
      expect.objectContaining({ index: 0, kind: "expect", passed: false, message: "no matching message.read event" }),
    ]);
  });

  it("a step that cannot be done stops its file, with the API's refusal", async () => {
    const path = file(
      "refused.yaml",
      'steps:\n  - send: { to: "+15555550100", from: "{{numbers.0}}", text: "x" }\n  - advance: 1s\n',
    );
    const result = await sandbox.cli("run", path, "--json");
    expect(result.code).toBe(1);
    const steps = JSON.parse(result.stdout).files[0].steps;
    expect(steps).toEqual([{ index: 0, kind: "send", passed: false, message: expect.stringMatching(/^400 \w+: /) }]);
  });

  it("bad files run nothing: exit 1, invalid_scenario, each problem with file, line, step and field", async () => {
    const good = file("good.yaml", "steps:\n  - advance: 1s\n");
    const bad = file("bad.yaml", 'steps:\n  - send: { to: 5 }\n  - expect: { event: "message.nope" }\n');
    const junit = join(dir, "invalid.xml");
    const human = await sandbox.cli("run", good, bad, "--junit", junit);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe("");
    expect(human.stderr).toContain(`${bad}:2:17: steps[0].send.to: must be a string, not a number`);
    expect(human.stderr).toContain(`${bad}:3:22: steps[1].expect.event: must be one of "message.received"`);
    const checked = await validateXML({
      xml: [{ fileName: "invalid.xml", contents: readFileSync(junit, "utf8") }],
      schema: [xsd],
    });
    expect(checked.errors).toEqual([]);

    const json = await sandbox.cli("run", good, bad, "--json");
    expect(json.code).toBe(1);
    const error = JSON.parse(json.stdout);
    expect(error).toMatchObject({ error: "invalid_scenario" });
    expect(error.problems).toEqual([
      { file: bad, path: "steps[0].send.to", message: "must be a string, not a number", line: 2, column: 17 },
      expect.objectContaining({ file: bad, path: "steps[1].expect.event", line: 3, column: 22 }),
    ]);
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
    const path = file(
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
    writeFileSync(join(dir, "app-hooked.snapshot"), Buffer.from(await exported.arrayBuffer()));
    writeFileSync(path, readFileSync(path, "utf8").replace("restore: app-hooked", "restore: ./app-hooked.snapshot"));
    const served = await runCli(["run", path, "--serve", "--port", "0", "--otp-port", "0"]);
    expect(served.code, served.stdout + served.stderr).toBe(0);
  });

  it("a missing file is a usage error (exit 2); so is run with no file", async () => {
    const missing = await sandbox.cli("run", join(dir, "nope.yaml"));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("nope.yaml: no such file");
    expect((await sandbox.cli("run")).code).toBe(2);
  });
});

describe("msgctl run on a real clock, with --serve, --schema", { timeout: 120_000 }, () => {
  const sandbox = useServe(["--clock", "real"]);

  it("advance on a real clock fails saying so", async () => {
    const path = file("real.yaml", "steps:\n  - advance: 1s\n");
    const result = await sandbox.cli("run", path, "--json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).files[0].steps[0].message).toMatch(
      /^advance needs a manual clock, and this sandbox's clock is real/,
    );
  });

  it("--serve starts a sandbox on a manual clock for the run and stops it", async () => {
    const path = file(
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
