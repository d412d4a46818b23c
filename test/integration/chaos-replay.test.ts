import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChaosLogEntry } from "../../src/contract/index.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { withoutIdsAndTimes } from "../helpers/chaos.js";
import { useReceiver, type Receiver } from "../helpers/webhook-receiver.js";

/**
 * Replaying a run with its seed (docs/chaos.md, "Replaying a CI run"): the same seed over the same
 * calls makes the same decisions, whatever the timing between the calls and across a restart;
 * another seed decides otherwise.
 */

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";
const CHAOS = { seed: "ci-run-8841", profile: "rough" } as const;

/** The calls of one run, in two halves (a restart may come between them). */
async function firstHalf(sb: StartedSandbox, receiver: Receiver, settleEach: boolean) {
  await sb.client.webhooks.create({ url: receiver.url });
  await calls(sb, 0, 15, settleEach);
}

async function secondHalf(sb: StartedSandbox, settleEach: boolean) {
  await calls(sb, 15, 30, settleEach);
  await sb.clock.advance("2h");
  await sb.settle();
}

/** Inbound texts and sends, a second apart; with `settleEach` the run waits for every attempt between calls. */
async function calls(sb: StartedSandbox, from: number, to: number, settleEach: boolean) {
  for (let i = from; i < to; i++) {
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: `in ${i}` });
    if (settleEach) await sb.settle();
    await sb.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: `out ${i}` });
    if (settleEach) await sb.settle();
    await sb.clock.advance("1s");
  }
}

/** Every page of the chaos log. */
async function chaosLog(sb: StartedSandbox): Promise<ChaosLogEntry[]> {
  const entries: ChaosLogEntry[] = [];
  for (let after = 0; ; ) {
    const page = await sb.chaos.log({ after, limit: 100 });
    entries.push(...page.data);
    if (!page.hasMore) return entries;
    after = page.data.at(-1)?.id ?? after;
  }
}

/** What two runs must share: the log and the requests with ids and times set aside. */
interface RunRecord {
  log: string[];
  requests: string[];
}

const logLines = (entries: ChaosLogEntry[]) =>
  entries.map((e) =>
    [e.kind, e.event_type, e.event_number, e.endpoint_number, e.message_number, e.handle, e.receipt, e.delay_ms].join(
      " ",
    ),
  );

const requestLines = (receiver: Receiver) =>
  receiver.requests.map((r) =>
    withoutIdsAndTimes(
      `${r.headers["x-msgctl-chaos"] ?? "-"} ${r.headers["x-msgctl-attempt"]} ${r.headers["x-msgctl-event-id"]} ${r.body}`,
    ),
  );

async function run(
  receiver: Receiver,
  options: { chaos?: typeof CHAOS | { seed: string; profile: "rough" }; restart?: boolean; settleEach?: boolean } = {},
): Promise<RunRecord> {
  receiver.requests.length = 0;
  receiver.answered.length = 0;
  const db = options.restart ? join(mkdtempSync(join(tmpdir(), "msgctl-chaos-replay-")), "sandbox.db") : undefined;
  const chaos = options.chaos ?? CHAOS;
  let sb = await startSandbox({ db, chaos });
  try {
    await firstHalf(sb, receiver, options.settleEach ?? false);
    if (options.restart) {
      await sb.settle();
      await sb.stop();
      sb = await startSandbox({ db, chaos });
    }
    await secondHalf(sb, options.settleEach ?? false);
    return { log: logLines(await chaosLog(sb)), requests: requestLines(receiver) };
  } finally {
    await sb.stop();
  }
}

describe("replaying with the same seed", () => {
  const receiver = useReceiver();

  it("two runs make the same chaos log and the same requests at the receiver, whatever the timing between calls", async () => {
    const first = await run(receiver);
    const second = await run(receiver, { settleEach: true });
    expect(first.log.length).toBeGreaterThan(20);
    // Every kind of chaos met in this run.
    for (const kind of ["duplicate", "reordered", "delayed", "send_error", "receipt_lost"])
      expect(
        first.log.some((line) => line.startsWith(kind)),
        kind,
      ).toBe(true);
    expect(second.log).toEqual(first.log);
    expect(second.requests).toEqual(first.requests);
  });

  it("a run with a restart in the middle (the same database and seed) makes the same as one without", async () => {
    const straight = await run(receiver);
    const restarted = await run(receiver, { restart: true });
    expect(restarted.log).toEqual(straight.log);
    expect(restarted.requests).toEqual(straight.requests);
  });

  it("another seed makes other decisions", async () => {
    const first = await run(receiver);
    const other = await run(receiver, { chaos: { seed: "ci-run-8842", profile: "rough" } });
    expect(other.log).not.toEqual(first.log);
    expect(other.requests).not.toEqual(first.requests);
  });
});
