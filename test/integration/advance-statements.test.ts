import { beforeEach, describe, expect, it } from "vitest";
import { countStatements } from "../helpers/statement-count.js";
import { useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const MESSAGES = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The statements an advance runs per message, counted (not timed: the machine's load does not
 * move them). 100 messages to distinct default-profile recipients each reach read in one 24 h
 * advance: 3 transitions and 3 events a message, and with a webhook answering 200 3 first
 * attempts. The bounds fail when a change adds statements to a transition or an attempt.
 */
describe("statements per message in an advance", () => {
  const t = useSandbox({ socket: true });
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    receiver.reply(() => ({ status: 200 }));
  });

  /** Statements a message costs: all of them, and those that are not transaction control (BEGIN, SAVEPOINT…). */
  async function sendAndAdvance(): Promise<{ all: number; work: number }> {
    for (let i = 0; i < MESSAGES; i++) {
      const to = `+1415555${String(2000 + i).padStart(4, "0")}`;
      const res = await t.api("POST", "/v1/messages", { body: { to, from_handle: "+14155550101", text: `m${i}` } });
      expect(res.status).toBe(202);
    }
    await t.sandbox.db.committed();
    const count = await countStatements(async () => {
      await t.advance(DAY_MS);
      await t.sandbox.db.committed();
    });
    const control = [...count.bySql]
      .filter(([sql]) => /^(BEGIN|COMMIT|SAVEPOINT|RELEASE|ROLLBACK)\b/.test(sql))
      .reduce((sum, [, n]) => sum + n, 0);
    const read = await t.api("GET", "/v1/messages?limit=100&status=read");
    expect(read.body.data).toHaveLength(MESSAGES);
    // The figure bench/HISTORY.md quotes, with the statements by kind (VERBOSE=1 prints it).
    if (process.env.VERBOSE) {
      const top = [...count.bySql].sort((a, b) => b[1] - a[1]);
      console.log(
        `${count.total / MESSAGES} statements a message, ${(count.total - control) / MESSAGES} without transaction control\n` +
          top.map(([sql, n]) => `${n}\t${sql}`).join("\n"),
      );
    }
    return { all: count.total / MESSAGES, work: (count.total - control) / MESSAGES };
  }

  it("no webhook: 3 transitions a message", async () => {
    const perMessage = await sendAndAdvance();
    // 23.3 and 29.3 before one read took the message, its group link and its contact together
    // (and a send attempt its number's faults).
    expect(perMessage.work).toBeLessThanOrEqual(15.5);
    expect(perMessage.all).toBeLessThanOrEqual(21.5);
  });

  it("one endpoint answering 200: 3 transitions and 3 first attempts a message", async () => {
    const hook = await t.api("POST", "/v1/webhooks", { body: { url: receiver.url } });
    expect(hook.status).toBe(201);
    const perMessage = await sendAndAdvance();
    expect(receiver.requests).toHaveLength(3 * MESSAGES);
    // 44.35 before (the read above, and an attempt's second read of its delivery). Savepoints
    // and commits vary here with how the attempts' records batch: the work statements do not.
    expect(perMessage.work).toBeLessThanOrEqual(33.5);
    // 57.3 before; a first attempt starts with no savepoint around it (about 41 now).
    expect(perMessage.all).toBeLessThanOrEqual(44);
  });
});
