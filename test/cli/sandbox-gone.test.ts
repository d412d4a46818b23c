import diagnostics from "node:diagnostics_channel";
import { describe, expect, it } from "vitest";
import { waitEvent } from "../../src/cli/commands/wait.js";
import { readEventStream } from "../../src/cli/event-stream.js";
import { createOutput } from "../../src/cli/output.js";
import { createClient } from "../../src/client/client.js";
import { ConnectionError } from "../../src/client/http.js";
import { startSandbox } from "../../src/runtime/start-sandbox.js";
import { spawnServe } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";

/** A response whose body sends one event, then breaks off as undici's does when the server goes. */
function brokenStream(url: string): Response {
  let pulls = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('event: event\ndata: {"n":1}\n\n'));
      else controller.error(new TypeError("terminated"));
    },
  });
  const response = new Response(body, { headers: { "content-type": "text/event-stream" } });
  Object.defineProperty(response, "url", { value: url });
  return response;
}

describe("an event stream cut off by the sandbox stopping", () => {
  it("is a ConnectionError naming the sandbox (exit 1), after the events that came before it", async () => {
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const event of readEventStream(brokenStream("http://127.0.0.1:4010/sandbox/v1/events/stream")))
        seen.push(event);
    })();
    await expect(reading).rejects.toThrow(ConnectionError);
    await expect(reading).rejects.toThrow("Cannot reach the sandbox at http://127.0.0.1:4010: the sandbox went away");
    expect(seen).toEqual([{ n: 1 }]);
  });
});

describe("an ordinary answer cut off midway", () => {
  it("is a ConnectionError from the typed client, not a bare TypeError", async () => {
    const broken = () => {
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.error(new TypeError("terminated")),
      });
      const response = new Response(body, { status: 200, headers: { "content-type": "application/json" } });
      Object.defineProperty(response, "url", { value: "http://127.0.0.1:4010/v1/numbers" });
      return Promise.resolve(response);
    };
    const client = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "sk_test_x", fetch: broken });
    await expect(client.numbers.list()).rejects.toThrow(
      "Cannot reach the sandbox at http://127.0.0.1:4010: the sandbox went away while answering",
    );
  });
});

describe("wait event when the sandbox stops while it waits", () => {
  it("fails with a ConnectionError (exit 1), as `wait message` does, not a crash", async () => {
    const sandbox = await startSandbox();
    // Seen from the outside only: the wait's stream is open once its answer's headers arrived
    // (node:http announces each answer on this channel; the CLI's requests go through node:http).
    const answers: number[] = [];
    const seen = ({ response }: { response: { statusCode: number } }) => answers.push(response.statusCode);
    diagnostics.subscribe("http.client.response.finish", seen as (message: unknown) => void);
    try {
      const out = createOutput({ json: true, color: false, stdout: () => {}, stderr: () => {} });
      const waiting = waitEvent(
        "message.edited",
        { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, stateDir: "/nonexistent", timeout: "30s" },
        out,
      );
      await expect.poll(() => answers.length).toBe(1);
      expect(answers[0]).toBe(200);
      await sandbox.stop();
      await expect(waiting).rejects.toThrow(ConnectionError);
      await expect(waiting).rejects.toThrow(`Cannot reach the sandbox at ${sandbox.baseUrl}: the sandbox went away`);
    } finally {
      diagnostics.unsubscribe("http.client.response.finish", seen as (message: unknown) => void);
    }
  });
});

describe("streaming commands when the sandbox stops (SIGINT to serve): one error line, exit 1", () => {
  it("webhooks tail, webhooks listen and wait event all say the sandbox went away, with no crash report", async () => {
    const serve = await spawnServe([
      "--port",
      "0",
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--clock",
      "manual",
      "--no-state-file",
    ]);
    const flags = ["--base-url", serve.ready.base_url, "--api-key", serve.ready.accounts[0]?.api_key ?? ""];
    const tail = spawnCli(["webhooks", "tail", ...flags]);
    const listen = spawnCli(["webhooks", "listen", "--forward-to", "http://127.0.0.1:9/hook", ...flags]);
    const wait = spawnCli(["wait", "event", "message.edited", "--timeout", "30s", ...flags]);
    try {
      // Both print these once their stream is open; `wait event` prints nothing while it waits
      // (its own case, below, watches its stream open), and was started as early.
      await tail.stderrContains("Tailing events");
      await listen.line((line) => line.startsWith("Ready!"));
      expect(await serve.stop("SIGINT")).toBe(0);

      for (const command of [tail, listen, wait]) {
        expect(await command.exited, command.stderr()).toBe(1);
        expect(command.stderr()).toMatch(/^error Cannot reach the sandbox at http:\/\/127\.0\.0\.1:\d+: /m);
        expect(command.stderr()).not.toContain("crashed");
      }
      expect(tail.stderr()).toContain("the sandbox went away");
      expect(listen.stderr()).toContain("the sandbox went away");
    } finally {
      for (const command of [tail, listen, wait]) await command.stop("SIGKILL");
      if (serve.child.exitCode === null) await serve.stop("SIGKILL");
    }
  });
});
