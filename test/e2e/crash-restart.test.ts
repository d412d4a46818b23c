import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spawnServe, type ServeProcess } from "../helpers/cli.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const KEY = "sk_test_acme_0000000000000000";

const api = (serve: ServeProcess) => async (method: string, path: string, body?: unknown) => {
  const response = await fetch(serve.ready.base_url + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

async function allEvents(call: ReturnType<typeof api>): Promise<{ id: string; type: string }[]> {
  const events: { id: string; type: string; seq: number }[] = [];
  for (let after = 0; ; ) {
    const page = (await call("GET", `/sandbox/v1/events?after=${after}&limit=100`)).body;
    events.push(...page.data);
    if (!page.has_more) return events;
    after = page.data.at(-1).seq;
  }
}

describe("kill -9 in the middle of a burst of sends, then a restart on the same file (docs/sandbox.md)", () => {
  const receiver = useReceiver();

  it("every 202-accepted message is there and goes on to read; every event is delivered at least once", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-crash-")), "sandbox.db");
    const flags = ["--port", "0", "--otp-port", "0", "--db", db, "--clock", "manual", "--no-state-file", "--quiet"];
    const first = await spawnServe(flags);
    const before = api(first);
    expect((await before("POST", "/v1/webhooks", { url: receiver.url })).status).toBe(201);

    // --- The burst: sends 20 at a time, the clock moving between waves so events are in flight ---
    const accepted: string[] = [];
    let killed = false;
    const sendOne = async (n: number) => {
      try {
        const res = await before("POST", "/v1/messages", {
          to: "+14155550191",
          from_handle: "+14155550101",
          text: `burst ${n}`,
        });
        if (res.status === 202) accepted.push(res.body.data.id);
      } catch {
        // The process died before answering: not acknowledged, so nothing was promised.
      }
      // Kill mid-wave: the other sends of this wave, an advance and deliveries are still running.
      if (accepted.length === 110 && !killed) {
        killed = true;
        first.child.kill("SIGKILL");
      }
    };
    for (let wave = 0; wave < 15 && !killed; wave++) {
      const sends = Array.from({ length: 20 }, (_, i) => sendOne(wave * 20 + i));
      const advance = before("POST", "/sandbox/v1/clock/advance", { duration: "700ms" }).catch(() => undefined);
      await Promise.all([...sends, advance]);
    }
    expect(killed).toBe(true);
    if (first.child.exitCode === null && first.child.signalCode === null)
      await new Promise((resolve) => first.child.once("exit", resolve));

    // --- Restart on the same file ---
    const second = await spawnServe(flags);
    const after = api(second);
    try {
      for (const id of accepted) expect((await after("GET", `/v1/messages/${id}`)).status, id).toBe(200);
      await after("POST", "/sandbox/v1/clock/advance", { duration: "2h" });
      const statuses = await Promise.all(
        accepted.map(async (id) => (await after("GET", `/v1/messages/${id}`)).body.data.status),
      );
      expect(new Set(statuses)).toEqual(new Set(["read"]));

      const events = await allEvents(after);
      expect(events.length).toBeGreaterThanOrEqual(accepted.length * 3);
      const delivered = () => new Set(receiver.requests.map((r) => r.headers["x-msgctl-event-id"]));
      await expect
        .poll(() => events.filter((event) => !delivered().has(event.id)).map((e) => e.type), { timeout: 10_000 })
        .toEqual([]);
    } finally {
      await second.stop();
    }
  }, 60_000);
});
