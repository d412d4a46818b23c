import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { decideDelivery } from "../../src/domain/chaos/index.js";
import { runCli, spawnServe, useServe, type ServeProcess } from "../helpers/cli.js";
import { MILD_RATES, ROUGH_RATES, seedWhere, withoutIdsAndTimes } from "../helpers/chaos.js";
import { useReceiver, type Receiver } from "../helpers/webhook-receiver.js";

/**
 * Seeded chaos over the real CLI: `serve --chaos SEED[:PROFILE]`, `msgctl chaos on|off|status|log`
 * with and without --json, their exit statuses, and a run replayed with its seed by two `serve`
 * processes, one of them restarted in the middle.
 */

const KEY = "sk_test_acme_0000000000000000";
const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |msgctl crashed/);

/** A control or API call straight over HTTP: set-up and traffic, not the commands under test. */
async function call(baseUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: any };
  expect(response.ok, JSON.stringify(json)).toBe(true);
  return json.data;
}

describe("`msgctl chaos` against `serve --chaos 42:rough`", { timeout: 60_000 }, () => {
  const sandbox = useServe(["--chaos", "42:rough"]);
  const base = () => sandbox.serve.ready.base_url;

  it("serve --chaos switches it on from the start; `chaos status --json` prints { enabled, seed, profile, rates }", async () => {
    expect(await sandbox.json("chaos", "status")).toEqual({
      enabled: true,
      seed: 42,
      profile: "rough",
      rates: ROUGH_RATES,
    });
    // Under --json serve says so in a log record after the ready line.
    expect(sandbox.serve.lines.slice(1).map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: "info", msg: "chaos on", seed: 42, profile: "rough" }),
    );
    const human = await sandbox.cli("chaos", "status");
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Chaos is on: seed 42, profile rough$/m);
    expect(human.stdout).toMatch(/^\s+duplicate\s+25%\s+an event delivered twice/m);
    expect(human.stdout).toMatch(/^\s+receipt_lost\s+10%\s+a receipt/m);
  });

  it("`chaos on SEED` takes mild by default, `--profile rough` the other; `chaos off` switches it off", async () => {
    expect(await sandbox.json("chaos", "on", "ci-run-7")).toEqual({
      enabled: true,
      seed: "ci-run-7",
      profile: "mild",
      rates: MILD_RATES,
    });
    // A whole number written plainly is a number; 007 stays text (its own seed).
    expect(await sandbox.json("chaos", "on", "007", "--profile", "rough")).toMatchObject({ seed: "007" });
    expect(await sandbox.json("chaos", "on", "1234", "--profile", "rough")).toMatchObject({
      seed: 1234,
      profile: "rough",
    });
    expect(await sandbox.json("chaos", "off")).toEqual({ enabled: false, seed: null, profile: null, rates: null });
    const status = await sandbox.cli("chaos", "status");
    expect(status.stdout).toMatch(/^Chaos is off\./m);
    const on = await sandbox.cli("chaos", "on", "42", "--profile", "rough");
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/^Chaos is on: seed 42, profile rough$/m);
  });

  it("a profile that is not mild or rough is a usage error (exit 2); an empty seed is the sandbox's 400 (exit 1)", async () => {
    const profile = await sandbox.cli("chaos", "on", "42", "--profile", "wild", "--json");
    expect(profile.code).toBe(2);
    expect(JSON.parse(profile.stdout)).toEqual({ error: "usage", message: expect.stringContaining("mild, rough") });
    const seed = await sandbox.cli("chaos", "on", "", "--json");
    expect(seed.code).toBe(1);
    expect(JSON.parse(seed.stdout)).toEqual({
      error: "invalid_request",
      message: expect.stringContaining("seed"),
      request_id: expect.stringMatching(/^req_/),
      status: 400,
    });
    const limit = await sandbox.cli("chaos", "log", "--limit", "0");
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/invalid_request.*limit/);
    noStack(limit.stderr);
    // Nothing changed.
    expect(await sandbox.json("chaos", "status")).toMatchObject({ enabled: true, seed: 42, profile: "rough" });
  });

  it("`chaos log` lists the decisions (a page, then `More: --after`); `webhooks deliveries` marks the deliveries touched", async () => {
    await sandbox.reset();
    await call(base(), "POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["message.received"] });
    for (let i = 0; i < 12; i++) {
      await call(base(), "POST", "/sandbox/v1/simulate/inbound", { from: CONTACT, to: NUMBER, text: `in ${i}` });
    }
    const log = await sandbox.json("chaos", "log", "--all");
    expect(log.length).toBeGreaterThan(2);
    expect(log.map((entry: { id: number }) => entry.id)).toEqual(
      [...log.map((e: { id: number }) => e.id)].sort((a, b) => a - b),
    );
    expect(log[0]).toEqual(
      expect.objectContaining({ kind: expect.stringMatching(/^(duplicate|reordered|delayed)$/), endpoint_number: 1 }),
    );
    const page = await sandbox.cli("chaos", "log", "--limit", "2");
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/^ID\s+AT\s+KIND\s+WORK\s+BY$/m);
    expect(page.stdout).toMatch(/event #\d+ message\.received → endpoint #1/);
    expect(page.stdout).toContain(`More: --after ${log[1].id} (or --all)`);
    const rest = await sandbox.json("chaos", "log", "--after", String(log[1].id), "--limit", "100");
    expect(rest).toEqual(log.slice(2));

    const deliveries = await sandbox.cli("webhooks", "deliveries");
    expect(deliveries.stdout).toMatch(/^ID\s+EVENT\s+WEBHOOK\s+STATUS\s+ATTEMPTS\s+LAST\s+CHAOS\s+NEXT ATTEMPT$/m);
    expect(deliveries.stdout).toMatch(/\s(duplicate|reordered|delayed)\s/);
  });
});

describe("`serve --chaos` refuses a bad value before it starts", { timeout: 60_000 }, () => {
  it.each([
    ["42:wild", /unknown profile "wild"/],
    [":rough", /the seed is empty/],
    ["a:b", /unknown profile "b".*with its profile/],
  ])("--chaos %s: exit 2 naming --chaos", async (value, why) => {
    const result = await runCli([
      "serve",
      "--json",
      "--port",
      "0",
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--no-state-file",
      "--chaos",
      value,
    ]);
    expect(result.code).toBe(2);
    const failure = JSON.parse(result.stdout.trim());
    expect(failure).toEqual({ error: "usage", message: expect.stringMatching(why) });
    expect(failure.message).toMatch(/^--chaos: /);
    noStack(result.stderr);
  });
});

describe("without chaos", { timeout: 60_000 }, () => {
  const sandbox = useServe();

  it("`chaos status` says off, the log is empty, and `webhooks deliveries` has no CHAOS column", async () => {
    expect(await sandbox.json("chaos", "status")).toEqual({ enabled: false, seed: null, profile: null, rates: null });
    await call(sandbox.serve.ready.base_url, "POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook" });
    for (let i = 0; i < 5; i++) {
      await call(sandbox.serve.ready.base_url, "POST", "/sandbox/v1/simulate/inbound", {
        from: CONTACT,
        to: NUMBER,
        text: `in ${i}`,
      });
    }
    expect(await sandbox.json("chaos", "log")).toEqual([]);
    const deliveries = await sandbox.cli("webhooks", "deliveries");
    expect(deliveries.stdout).toMatch(/^ID\s+EVENT\s+WEBHOOK\s+STATUS\s+ATTEMPTS\s+LAST\s+NEXT ATTEMPT$/m);
    expect(deliveries.stdout).not.toContain("CHAOS");
  });
});

describe("a run replayed with its seed by `serve --chaos`", { timeout: 120_000 }, () => {
  // A seed under which, in these first events, chaos copies, swaps and holds back at least once each.
  const seed = seedWhere((chaos) => {
    const decisions = Array.from({ length: 20 }, (_, i) => decideDelivery(chaos, i + 1, 1));
    return (
      decisions.some((d) => d.duplicateAfterMs !== undefined) &&
      decisions.some((d) => d.swap) &&
      decisions.some((d) => d.extraWaitMs !== undefined)
    );
  });
  const receiver = useReceiver();
  const started: ServeProcess[] = [];
  const serve = async (args: string[]) => {
    const process = await spawnServe([
      "--port",
      "0",
      "--otp-port",
      "0",
      "--clock",
      "manual",
      "--no-state-file",
      "--quiet",
      ...args,
    ]);
    started.push(process);
    return process;
  };
  const stop = async (process: ServeProcess) => expect(await process.stop()).toBe(0);
  afterAll(async () => {
    for (const process of started) if (process.child.exitCode === null) await process.stop();
  });
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.answered.length = 0;
  });

  /** Inbound texts and sends, a second of sandbox time apart, over HTTP. */
  const traffic = async (baseUrl: string, from: number, to: number) => {
    for (let i = from; i < to; i++) {
      await call(baseUrl, "POST", "/sandbox/v1/simulate/inbound", { from: CONTACT, to: NUMBER, text: `in ${i}` });
      await call(baseUrl, "POST", "/v1/messages", { from_handle: NUMBER, to: CONTACT, text: `out ${i}` });
      await call(baseUrl, "POST", "/sandbox/v1/clock/advance", { duration: "1s" });
    }
  };
  const finish = async (baseUrl: string) => {
    await call(baseUrl, "POST", "/sandbox/v1/clock/advance", { duration: "2h" });
    await call(baseUrl, "POST", "/sandbox/v1/settle");
  };
  /** The chaos log through `msgctl chaos log --all --json`, and the receiver's requests, ids and times set aside. */
  const record = async (baseUrl: string, r: Receiver) => {
    const log = await runCli(["chaos", "log", "--all", "--json", "--base-url", baseUrl, "--api-key", KEY]);
    expect(log.code, log.stderr).toBe(0);
    return {
      log: withoutIdsAndTimes(log.stdout),
      requests: r.requests.map((q) =>
        withoutIdsAndTimes(`${q.headers["x-msgctl-chaos"] ?? "-"} ${q.headers["x-msgctl-attempt"]} ${q.body}`),
      ),
    };
  };

  it("the same chaos log and the same requests at the receiver, straight or with a restart in the middle", async () => {
    const straight = await serve(["--db", ":memory:", "--chaos", `${seed}:rough`]);
    await call(straight.ready.base_url, "POST", "/v1/webhooks", { url: receiver.url });
    await traffic(straight.ready.base_url, 0, 10);
    await finish(straight.ready.base_url);
    const first = await record(straight.ready.base_url, receiver);
    await stop(straight);
    expect(first.requests.some((line) => line.startsWith("duplicate "))).toBe(true);
    expect(first.requests.some((line) => line.startsWith("reordered "))).toBe(true);

    receiver.requests.length = 0;
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-chaos-e2e-")), "sandbox.db");
    const before = await serve(["--db", db, "--chaos", `${seed}:rough`]);
    await call(before.ready.base_url, "POST", "/v1/webhooks", { url: receiver.url });
    await traffic(before.ready.base_url, 0, 5);
    await call(before.ready.base_url, "POST", "/sandbox/v1/settle");
    await stop(before);
    const after = await serve(["--db", db, "--chaos", `${seed}:rough`]);
    await traffic(after.ready.base_url, 5, 10);
    await finish(after.ready.base_url);
    const second = await record(after.ready.base_url, receiver);
    await stop(after);
    expect(second.log).toEqual(first.log);
    expect(second.requests).toEqual(first.requests);

    // Chaos is the database's state: a start without --chaos finds it still on.
    const again = await serve(["--db", db]);
    const status = await runCli(["chaos", "status", "--json", "--base-url", again.ready.base_url, "--api-key", KEY]);
    expect(JSON.parse(status.stdout)).toEqual({ enabled: true, seed, profile: "rough", rates: ROUGH_RATES });
    await stop(again);
  });
});

describe("a chaos step in `msgctl run`", { timeout: 120_000 }, () => {
  // The account's first event is copied, and nothing else is done to it.
  const seed = seedWhere((chaos) => {
    const first = decideDelivery(chaos, 1, 1);
    return first.duplicateAfterMs !== undefined && first.extraWaitMs === undefined && !first.swap;
  });
  const sandbox = useServe();
  const receiver = useReceiver();

  it("switches chaos on and off for the run; each file's account numbers its own work, so a run replays", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "msgctl-chaos-run-")), "chaos.yaml");
    writeFileSync(
      file,
      `name: a handler under chaos
steps:
  - chaos: { seed: "${seed}", profile: rough }
  - webhook: { url: "${receiver.url}", events: [message.received] }
  - simulate: { inbound: { from: "+14155550191", to: "{{numbers.0}}", text: "one" } }
  - advance: 2m
  - expect: { delivery: { event: message.received }, status: succeeded }
  - chaos: off
`,
    );
    const requests: string[][] = [];
    for (let run = 0; run < 2; run++) {
      receiver.requests.length = 0;
      const result = await sandbox.cli("run", file, "--json");
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const steps = JSON.parse(result.stdout).files[0].steps;
      expect(steps[0]).toEqual({
        index: 0,
        kind: "chaos",
        passed: true,
        message: `chaos on: seed "${seed}", profile rough`,
      });
      expect(steps[5]).toEqual({ index: 5, kind: "chaos", passed: true, message: "chaos off" });
      requests.push(receiver.requests.map((r) => `${r.headers["x-msgctl-chaos"] ?? "-"} ${JSON.parse(r.body).text}`));
    }
    expect(requests[0]).toEqual(["- one", "duplicate one"]);
    expect(requests[1]).toEqual(requests[0]);
    expect(await sandbox.json("chaos", "status")).toMatchObject({ enabled: false });
  });
});
