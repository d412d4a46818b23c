import { beforeEach, describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const KEY = "sk_test_acme_0000000000000000";
const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

/**
 * A suite in another language drives the built `msgctl serve` over HTTP and the CLI: a control
 * action, then settle, then a look at its app (here a receiver that takes 300 ms per delivery).
 */
// Each test spawns the CLI a few times: on a loaded machine a start takes seconds.
describe.each(["manual", "real"] as const)("settle against `msgctl serve --clock %s`", { timeout: 90_000 }, (clock) => {
  const sandbox = useServe(["--clock", clock]);
  const app = useReceiver();
  const handled = () => app.answered.map((request) => String(request.headers["x-msgctl-event-id"]));
  const post = async (path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.serve.ready.base_url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const receivedEventOf = async (messageId: string) => {
    const response = await fetch(
      `${sandbox.serve.ready.base_url}/sandbox/v1/events?types=message.received&order=desc`,
      {
        headers: { authorization: `Bearer ${KEY}` },
      },
    );
    const page = (await response.json()) as { data: { id: string; payload: { message_id: string } }[] };
    return page.data.find((event) => event.payload.message_id === messageId)?.id;
  };

  beforeEach(async () => {
    await sandbox.json("reset");
    app.requests.length = 0;
    app.answered.length = 0;
    app.reply(() => ({ status: 204, delayMs: 300 }));
  });

  it("over HTTP: the app has every delivery when POST /sandbox/v1/settle answers, in 50 of 50 tries", {
    timeout: 90_000,
  }, async () => {
    await sandbox.json("webhooks", "create", "--url", app.url, "--events", "message.received");
    // Any handling time longer than settle's own answer (a millisecond or two) proves the wait;
    // 40 ms keeps fifty tries quick.
    app.reply(() => ({ status: 204, delayMs: 40 }));
    const late: number[] = [];
    for (let i = 0; i < 50; i++) {
      const inbound = await post("/sandbox/v1/simulate/inbound", { from: CONTACT, to: NUMBER, text: `try ${i}` });
      const settled = await post("/sandbox/v1/settle");
      if (settled.status !== 200 || !handled().includes((await receivedEventOf(inbound.body.data.id)) ?? "")) {
        late.push(i);
      }
    }
    expect(late).toEqual([]);
  });

  it("`msgctl settle` waits for the deliveries; --json prints { now, jobs_run, attempts }", async () => {
    await sandbox.json("webhooks", "create", "--url", app.url, "--events", "message.received");
    const before = await sandbox.json("clock");
    const inbound = await sandbox.json("simulate", "inbound", "--from", CONTACT, "--to", NUMBER, "--text", "json");
    const settled = await sandbox.json("settle");
    // The counts depend on how far the attempt got while the CLI started (the API's tests pin them).
    expect(settled).toEqual({ now: expect.any(String), jobs_run: expect.any(Number), attempts: expect.any(Number) });
    expect(handled()).toEqual([await receivedEventOf(inbound.id)]);
    if (clock === "manual") expect(settled.now).toBe(before.now);
    if (clock === "manual") expect((await sandbox.json("clock")).now).toBe(before.now);

    await sandbox.json("simulate", "inbound", "--from", CONTACT, "--to", NUMBER, "--text", "human");
    const human = await sandbox.cli("settle", "--timeout", "5s");
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^now\s+\d{4}-/m);
    expect(human.stdout).toMatch(/^jobs_run\s+[01]$/m);
    expect(human.stdout).toMatch(/^attempts\s+[01]$/m);
    expect(handled()).toHaveLength(2);
  });

  it("`msgctl settle` exits 1 when a receiver hangs past the timeout, naming the delivery and its URL", async () => {
    app.reply(() => "hang");
    await sandbox.json("webhooks", "create", "--url", app.url, "--events", "message.received");
    await sandbox.json("simulate", "inbound", "--from", CONTACT, "--to", NUMBER, "--text", "hang on");
    const result = await sandbox.cli("settle", "--timeout", "300ms");
    expect(result.code).toBe(1);
    const [delivery] = await sandbox.json("webhooks", "deliveries");
    expect(result.stderr).toContain("settle_timeout");
    expect(result.stderr).toContain(`delivery ${delivery.id} to ${app.url} (attempt in flight)`);
    expect(result.stdout).toBe("");
    const json = await sandbox.cli("settle", "--timeout", "0s", "--json");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      error: "settle_timeout",
      status: 408,
      message: expect.stringContaining(`delivery ${delivery.id} to ${app.url}`),
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it("`msgctl settle --timeout` that is not a duration is a usage error (exit 2)", async () => {
    const result = await sandbox.cli("settle", "--timeout", "soon");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--timeout: "soon" is not a duration');
  });

  describe("`msgctl wait event TYPE --delivered`", () => {
    it("exits once the event's first attempt to every subscribed endpoint has finished, not when it is emitted", async () => {
      await sandbox.json("webhooks", "create", "--url", app.url, "--events", "message.received");
      await sandbox.json("webhooks", "create", "--url", `${app.url}/second`, "--events", "message.received");
      const waiting = sandbox.cli("wait", "event", "message.received", "--match", "text=delivered", "--delivered");
      const plain = sandbox.cli("wait", "event", "message.received", "--match", "text=delivered", "--json");
      await sandbox.json("simulate", "inbound", "--from", CONTACT, "--to", NUMBER, "--text", "delivered");
      const emitted = await plain;
      expect(emitted.code, emitted.stderr).toBe(0);
      const event = JSON.parse(emitted.stdout);
      const result = await waiting;
      expect(result.code, result.stderr).toBe(0);
      expect(handled()).toEqual([event.id, event.id]);
      expect(result.stdout).toContain(event.id);
    });

    it("exits 1 when the event arrived but a receiver hangs past the timeout", async () => {
      app.reply(() => "hang");
      await sandbox.json("webhooks", "create", "--url", app.url, "--events", "message.received");
      await sandbox.json("simulate", "inbound", "--from", CONTACT, "--to", NUMBER, "--text", "stuck");
      const result = await sandbox.cli(
        "wait",
        "event",
        "message.received",
        "--match",
        "text=stuck",
        "--delivered",
        "--timeout",
        "500ms",
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /The message\.received event [0-9a-f-]{36} arrived, but not every first delivery attempt finished within 500ms \(0 of 1 finished\)/,
      );
    });
  });
});

it("`msgctl settle` with no sandbox to talk to exits 1", async () => {
  const result = await runCli(["settle", "--base-url", "http://127.0.0.1:9", "--api-key", KEY]);
  expect(result.code).toBe(1);
});
