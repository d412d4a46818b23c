// The Node app's suite, with node:test: one sandbox started in-process by startSandbox (a manual
// clock, free ports), the app's world saved once as a snapshot and restored before each test.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, beforeEach, test } from "node:test";
import { startSandbox } from "msgctl";
import { createApp } from "../app.mjs";

const SECRET = "whsec_node_example_0123456789";
const EXAMPLE = resolve(import.meta.dirname, "..");
const msgctl = process.env.MSGCTL_BIN
  ? [process.env.MSGCTL_BIN]
  : [process.execPath, resolve(EXAMPLE, "../../bin/msgctl")];

let sandbox;
let app;
let appUrl;
const number = () => sandbox.accounts[0].numbers[0].handle;
const appCall = async (path, body) => {
  const response = await fetch(`${appUrl}${path}`, {
    method: body ? "POST" : "GET",
    headers: { "content-type": "application/json" },
    body: body && JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

before(async () => {
  sandbox = await startSandbox();
  app = createApp({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, secret: SECRET, fromNumber: number() });
  await new Promise((done) => app.server.listen(0, "127.0.0.1", done));
  appUrl = `http://127.0.0.1:${app.server.address().port}`;
  // The world every test starts from: the app's endpoint subscribed, saved once.
  await sandbox.client.webhooks.create({ url: `${appUrl}/hooks`, secret: SECRET });
  await sandbox.snapshot("app-ready");
});

beforeEach(async () => {
  await sandbox.restore("app-ready");
  Object.assign(app.state, { lastInbound: null, statuses: new Map(), seenEventIds: new Set() });
});

after(async () => {
  app.server.close();
  await sandbox.stop();
});

test("an inbound text reaches the app", async () => {
  await sandbox.simulate.inbound({ from: "+14155550191", to: number(), text: "hello" });
  await sandbox.settle(); // every delivery due has reached the app
  assert.deepEqual(await appCall("/api/last-inbound"), { status: 200, body: { from: "+14155550191", text: "hello" } });
});

test("the app texts and hears it was read", async () => {
  const sent = await appCall("/api/notify", { to: "+14155550191", text: "Your order shipped" });
  assert.equal(sent.status, 202);
  await sandbox.clock.advance("5s"); // sent, delivered, read
  await sandbox.settle();
  assert.equal((await sandbox.client.messages.get(sent.body.id)).status, "read");
  assert.deepEqual((await appCall(`/api/messages/${sent.body.id}`)).body, { id: sent.body.id, status: "read" });
});

test("a restore forgets what came after the snapshot", async () => {
  const sent = await appCall("/api/notify", { to: "+14155550191", text: "soon gone" });
  await sandbox.restore("app-ready");
  await assert.rejects(sandbox.client.messages.get(sent.body.id), { code: "not_found" });
});

test("the scenario file passes", async () => {
  const junit = join(mkdtempSync(join(tmpdir(), "node-example-")), "scenario.xml");
  // Not spawnSync: the sandbox and the app live in this process and must go on answering.
  const run = await new Promise((done) =>
    execFile(
      msgctl[0],
      [
        ...msgctl.slice(1),
        "run",
        join(EXAMPLE, "scenario.yaml"),
        "--junit",
        junit,
        "--base-url",
        sandbox.baseUrl,
        "--otp-url",
        sandbox.otpUrl,
        "--api-key",
        sandbox.apiKey,
      ],
      { env: { ...process.env, APP_URL: appUrl, NO_COLOR: "1" }, timeout: 120_000 },
      (error, stdout, stderr) => done({ status: error ? error.code : 0, stdout, stderr }),
    ),
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /^1 passed, 0 failed/m);
  assert.match(readFileSync(junit, "utf8"), /tests="1" failures="0" errors="0"/);
});

test("the webhook handler passes msgctl's check: signatures, replays, repeats, order, new fields", async () => {
  const report = await sandbox.checkWebhookHandler({ url: `${appUrl}/hooks`, secret: SECRET });
  const failed = report.probes.filter((probe) => probe.verdict === "fail");
  assert.deepEqual(failed, [], failed.map((probe) => `${probe.probe}: ${probe.why}`).join("\n"));
});
