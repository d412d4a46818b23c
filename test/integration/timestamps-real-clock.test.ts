import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/index.js";

/**
 * SANDBOX.md section 5: on a real clock, timestamps do not run ahead of the clock below 1,000
 * messages a second per account. Inbound messages at a steady 500 a second for 5 seconds, over
 * real HTTP: the newest created_at stays within 50 ms of the wall clock.
 */
describe("timestamps on a real clock under load", () => {
  it("inbound at 500 a second for 5 s: the newest created_at is within 50 ms of the wall clock", async () => {
    const sandbox = await startSandbox({ clock: "real" });
    try {
      const total = 2_500;
      const started = Date.now();
      const answers: Promise<Response>[] = [];
      // A steady pace: every 10 ms, the messages due by then (500 a second).
      await new Promise<void>((done) => {
        const timer = setInterval(() => {
          const due = Math.min(total, Math.floor(((Date.now() - started) / 1_000) * 500));
          while (answers.length < due) {
            answers.push(
              fetch(`${sandbox.baseUrl}/sandbox/v1/simulate/inbound`, {
                method: "POST",
                headers: { authorization: `Bearer ${sandbox.apiKey}`, "content-type": "application/json" },
                body: JSON.stringify({ from: "+14155550191", to: "+14155550101", text: `#${answers.length}` }),
              }),
            );
          }
          if (answers.length >= total) {
            clearInterval(timer);
            done();
          }
        }, 10);
      });
      const responses = await Promise.all(answers);
      const lastAnswerAt = Date.now();
      expect(responses.every((r) => r.status === 200 || r.status === 201)).toBe(true);
      const newest = (await sandbox.client.messages.list({ limit: 1 })).data[0];
      const ahead = Date.parse(newest?.created_at ?? "") - lastAnswerAt;
      expect(ahead).toBeLessThanOrEqual(50);
    } finally {
      await sandbox.stop();
    }
  }, 30_000);
});
