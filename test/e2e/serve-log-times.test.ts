import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.js";

const KEY = "sk_test_acme_0000000000000000";
const ARGS = ["serve", "--port", "0", "--otp-port", "0", "--db", ":memory:", "--clock", "manual", "--no-state-file"];

/** A `msgctl serve` process and a way to await one of its stdout lines. */
function startServe(extra: string[]) {
  const child = spawn(process.execPath, [BIN, ...ARGS, ...extra], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    for (const waiter of [...waiters]) waiter();
  });
  // A guard against a hung child, not a wait: the line comes as soon as the work is done.
  const line = (test: (text: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`no such line in:\n${lines.join("\n")}`)), 15_000);
      const waiter = () => {
        const found = lines.find(test);
        if (found === undefined) return;
        clearTimeout(guard);
        waiters.delete(waiter);
        resolve(found);
      };
      waiters.add(waiter);
      waiter();
    });
  return { child, lines, line };
}

/** Moves the clock two days past the wall clock's, sends a message and lets it be sent; its sent_at. */
async function sendTwoDaysAhead(baseUrl: string): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((res) => res.json() as Promise<{ data: any }>);
  await post("/sandbox/v1/clock/advance", { duration: "2d" });
  const { data: message } = await post("/v1/messages", { to: "+14155550191", from_handle: "+14155550101", text: "hi" });
  await post("/sandbox/v1/clock/advance", { duration: "1s" });
  const res = await fetch(`${baseUrl}/v1/messages/${message.id}`, { headers: { authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { data: { sent_at: string } }).data.sent_at;
}

describe("serve's log shows the sandbox clock's time, as listen, tail and get do, and says so", () => {
  const started: ReturnType<typeof startServe>[] = [];
  afterAll(() => {
    for (const serve of started) if (serve.child.exitCode === null) serve.child.kill("SIGTERM");
  });

  it("for people: the banner says whose time it is, and each line carries the virtual time", async () => {
    const serve = startServe([]);
    started.push(serve);
    await serve.line((text) => text.includes("Log times below are the sandbox clock's (manual)"));
    const baseUrl = (await serve.line((text) => text.includes("Messaging API"))).match(/http:\/\/\S+/)?.[0] ?? "";
    const sentAt = await sendTwoDaysAhead(baseUrl);
    const logged = await serve.line((text) => / message\.sent /.test(text));
    expect(logged.slice(0, 12)).toBe(sentAt.slice(11, 23));
  });

  it("under --json: `sandbox_time` beside the wall clock's `time`", async () => {
    const serve = startServe(["--json"]);
    started.push(serve);
    const ready = JSON.parse(await serve.line((text) => text.includes('"event":"ready"')));
    const sentAt = await sendTwoDaysAhead(ready.base_url);
    const record = JSON.parse(await serve.line((text) => text.includes('"msg":"message.sent"')));
    expect(record.sandbox_time).toBe(sentAt);
    // The wall clock's time stays where it was: two days behind.
    expect(Date.parse(record.sandbox_time) - Date.parse(record.time)).toBeGreaterThan(47 * 3_600_000);
  });
});
