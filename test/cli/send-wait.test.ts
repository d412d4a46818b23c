import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { runCli } from "../helpers/cli.js";
import { spawnCli } from "../helpers/cli-process.js";

describe("msgctl send --wait --json when the wait fails (README.md and docs/sandbox.md)", () => {
  let sandbox: StartedSandbox;
  let flags: string[];
  beforeAll(async () => {
    sandbox = await startSandbox(); // a manual clock: nothing moves, so the wait runs out
    flags = ["--base-url", sandbox.baseUrl, "--api-key", sandbox.apiKey, "--state-dir", "/nonexistent"];
  });
  afterAll(() => sandbox?.stop());

  it("prints one error object on stdout, with the message it created as last seen, and exits 1", async () => {
    const result = await runCli([
      "send",
      "--to",
      "+14155550191",
      "--from",
      "+14155550101",
      "--text",
      "hi",
      "--wait",
      "delivered",
      "--timeout",
      "200ms",
      "--json",
      ...flags,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    const failure = JSON.parse(result.stdout);
    expect(failure).toMatchObject({
      error: "timeout",
      message: expect.stringMatching(/^Message \S+ was still queued after 200ms \(wanted delivered/),
      last_seen: { id: expect.any(String), status: "queued", text: "hi" },
    });
    const message = failure.last_seen;
    expect(await sandbox.client.messages.get(message.id)).toMatchObject({ id: message.id });
  });
});

describe("msgctl send --wait on a manual clock says at once that the clock must be advanced", () => {
  let sandbox: StartedSandbox;
  let flags: string[];
  beforeAll(async () => {
    sandbox = await startSandbox(); // a manual clock with nothing due: the message stays queued
    flags = ["--base-url", sandbox.baseUrl, "--api-key", sandbox.apiKey, "--state-dir", "/nonexistent"];
  });
  afterAll(() => sandbox?.stop());

  it("tells people while it waits, not only at the timeout, and still returns once the clock moves it", async () => {
    const args = ["send", "--to", "+14155550191", "--from", "+14155550101", "--text", "hi"];
    const sending = spawnCli([...args, "--wait", "delivered", "--timeout", "60s", ...flags]);
    // Said within the 15 s guard of stderrContains, long before the 60 s timeout.
    await sending.stderrContains("The sandbox's clock is manual:");
    expect(sending.child.exitCode).toBeNull();
    expect(sending.stderr()).toMatch(
      /stays queued until it is advanced \(`msgctl clock advance 1s` in another shell\); waiting up to 60s\./,
    );
    await sandbox.clock.advance("1s");
    expect(await sending.exited).toBe(0);
  });
});
