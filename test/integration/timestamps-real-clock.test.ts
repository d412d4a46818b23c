import { Agent, request } from "node:http";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/index.js";

/** POSTs JSON over a keep-alive agent (a few sockets, requests queued behind them); resolves with the status. */
function post(agent: Agent, url: string, key: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * docs/spec-decisions.md: on a real clock, timestamps do not run ahead of the clock below 1,000
 * messages a second per account. Inbound messages at a steady 500 a second for 5 seconds, over
 * real HTTP: the newest created_at stays within 50 ms of the wall clock.
 */
describe("timestamps on a real clock under load", () => {
  it("inbound at 500 a second for 5 s: the newest created_at is within 50 ms of the wall clock", async () => {
    const sandbox = await startSandbox({ clock: "real" });
    try {
      const total = 2_500;
      const started = Date.now();
      const answers: Promise<number>[] = [];
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      // A steady pace: every 10 ms, the messages due by then (500 a second).
      await new Promise<void>((done) => {
        const timer = setInterval(() => {
          const due = Math.min(total, Math.floor(((Date.now() - started) / 1_000) * 500));
          while (answers.length < due) {
            const body = { from: "+14155550191", to: "+14155550101", text: `#${answers.length}` };
            answers.push(post(agent, `${sandbox.baseUrl}/sandbox/v1/simulate/inbound`, sandbox.apiKey, body));
          }
          if (answers.length >= total) {
            clearInterval(timer);
            done();
          }
        }, 10);
      });
      const statuses = await Promise.all(answers);
      const lastAnswerAt = Date.now();
      agent.destroy();
      expect(statuses.every((status) => status === 201)).toBe(true);
      const newest = (await sandbox.client.messages.list({ limit: 1 })).data[0];
      const ahead = Date.parse(newest?.created_at ?? "") - lastAnswerAt;
      expect(ahead).toBeLessThanOrEqual(50);
    } finally {
      await sandbox.stop();
    }
  }, 30_000);
});
