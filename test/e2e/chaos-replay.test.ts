import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { decideDelivery } from "../../src/domain/chaos/index.js";
import { runCli, spawnServe, useServe, type ServeProcess, callApi } from "../helpers/cli.js";
import { IPHONE, MAIN } from "../helpers/messages.js";
import { KEY } from "../helpers/sandbox.js";
import { ROUGH_RATES, seedWhere, withoutIdsAndTimes } from "../helpers/chaos.js";
import { useReceiver, type Receiver } from "../helpers/webhook-receiver.js";

/**
 * Seeded chaos over the real CLI: `serve --chaos SEED[:PROFILE]`, `msgctl chaos on|off|status|log`
 * with and without --json, their exit statuses, and a run replayed with its seed by two `serve`
 * processes, one of them restarted in the middle.
 */

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
      await callApi(baseUrl, "POST", "/sandbox/v1/simulate/inbound", { from: IPHONE, to: MAIN, text: `in ${i}` });
      await callApi(baseUrl, "POST", "/v1/messages", { from_handle: MAIN, to: IPHONE, text: `out ${i}` });
      await callApi(baseUrl, "POST", "/sandbox/v1/clock/advance", { duration: "1s" });
    }
  };
  const finish = async (baseUrl: string) => {
    await callApi(baseUrl, "POST", "/sandbox/v1/clock/advance", { duration: "2h" });
    await callApi(baseUrl, "POST", "/sandbox/v1/settle");
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
    await callApi(straight.ready.base_url, "POST", "/v1/webhooks", { url: receiver.url });
    await traffic(straight.ready.base_url, 0, 10);
    await finish(straight.ready.base_url);
    const first = await record(straight.ready.base_url, receiver);
    await stop(straight);
    expect(first.requests.some((line) => line.startsWith("duplicate "))).toBe(true);
    expect(first.requests.some((line) => line.startsWith("reordered "))).toBe(true);

    receiver.requests.length = 0;
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-chaos-e2e-")), "sandbox.db");
    const before = await serve(["--db", db, "--chaos", `${seed}:rough`]);
    await callApi(before.ready.base_url, "POST", "/v1/webhooks", { url: receiver.url });
    await traffic(before.ready.base_url, 0, 5);
    await callApi(before.ready.base_url, "POST", "/sandbox/v1/settle");
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
