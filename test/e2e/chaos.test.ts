import { describe, expect, it } from "vitest";
import { runCli, useServe, callApi } from "../helpers/cli.js";
import { IPHONE, MAIN } from "../helpers/messages.js";
import { MILD_RATES, ROUGH_RATES } from "../helpers/chaos.js";
/**
 * Seeded chaos over the real CLI: `serve --chaos SEED[:PROFILE]`, `msgctl chaos on|off|status|log`
 * with and without --json, their exit statuses, and a run replayed with its seed by two `serve`
 * processes, one of them restarted in the middle.
 */

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |msgctl crashed/);

describe("`msgctl chaos` against `serve --chaos 42:rough`", { timeout: 60_000 }, () => {
  const sandbox = useServe(["--chaos", "42:rough"]);
  const base = () => sandbox.serve.ready.base_url;

  it("serve --chaos switches it on from the start; `chaos status --json` prints { enabled, seed, profile, rates }", async () => {
    expect(await sandbox.json("chaos", "status")).toEqual({
      enabled: true,
      seed: 42,
      profile: "rough",
      rates: ROUGH_RATES,
    });
    // Under --json serve says so in a log record after the ready line.
    expect(sandbox.serve.lines.slice(1).map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: "info", msg: "chaos on", seed: 42, profile: "rough" }),
    );
    const human = await sandbox.cli("chaos", "status");
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Chaos is on: seed 42, profile rough$/m);
    expect(human.stdout).toMatch(/^\s+duplicate\s+25%\s+an event delivered twice/m);
    expect(human.stdout).toMatch(/^\s+receipt_lost\s+10%\s+a receipt/m);
  });

  it("`chaos on SEED` takes mild by default, `--profile rough` the other; `chaos off` switches it off", async () => {
    expect(await sandbox.json("chaos", "on", "ci-run-7")).toEqual({
      enabled: true,
      seed: "ci-run-7",
      profile: "mild",
      rates: MILD_RATES,
    });
    // A whole number written plainly is a number; 007 stays text (its own seed).
    expect(await sandbox.json("chaos", "on", "007", "--profile", "rough")).toMatchObject({ seed: "007" });
    expect(await sandbox.json("chaos", "on", "1234", "--profile", "rough")).toMatchObject({
      seed: 1234,
      profile: "rough",
    });
    expect(await sandbox.json("chaos", "off")).toEqual({ enabled: false, seed: null, profile: null, rates: null });
    const status = await sandbox.cli("chaos", "status");
    expect(status.stdout).toMatch(/^Chaos is off\./m);
    const on = await sandbox.cli("chaos", "on", "42", "--profile", "rough");
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toMatch(/^Chaos is on: seed 42, profile rough$/m);
  });

  it("a profile that is not mild or rough is a usage error (exit 2); an empty seed is the sandbox's 400 (exit 1)", async () => {
    const profile = await sandbox.cli("chaos", "on", "42", "--profile", "wild", "--json");
    expect(profile.code).toBe(2);
    expect(JSON.parse(profile.stdout)).toEqual({ error: "usage", message: expect.stringContaining("mild, rough") });
    const seed = await sandbox.cli("chaos", "on", "", "--json");
    expect(seed.code).toBe(1);
    expect(JSON.parse(seed.stdout)).toEqual({
      error: "invalid_request",
      message: expect.stringContaining("seed"),
      request_id: expect.stringMatching(/^req_/),
      status: 400,
    });
    const limit = await sandbox.cli("chaos", "log", "--limit", "0");
    expect(limit.code).toBe(1);
    expect(limit.stderr).toMatch(/invalid_request.*limit/);
    noStack(limit.stderr);
    // Nothing changed.
    expect(await sandbox.json("chaos", "status")).toMatchObject({ enabled: true, seed: 42, profile: "rough" });
  });

  it("`chaos log` lists the decisions (a page, then `More: --after`); `webhooks deliveries` marks the deliveries touched", async () => {
    await sandbox.reset();
    await callApi(base(), "POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["message.received"] });
    for (let i = 0; i < 12; i++) {
      await callApi(base(), "POST", "/sandbox/v1/simulate/inbound", { from: IPHONE, to: MAIN, text: `in ${i}` });
    }
    const log = await sandbox.json("chaos", "log", "--all");
    expect(log.length).toBeGreaterThan(2);
    expect(log.map((entry: { id: number }) => entry.id)).toEqual(
      [...log.map((e: { id: number }) => e.id)].sort((a, b) => a - b),
    );
    expect(log[0]).toEqual(
      expect.objectContaining({ kind: expect.stringMatching(/^(duplicate|reordered|delayed)$/), endpoint_number: 1 }),
    );
    const page = await sandbox.cli("chaos", "log", "--limit", "2");
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/^ID\s+AT\s+KIND\s+WORK\s+BY$/m);
    expect(page.stdout).toMatch(/event #\d+ message\.received → endpoint #1/);
    expect(page.stdout).toContain(`More: --after ${log[1].id} (or --all)`);
    const rest = await sandbox.json("chaos", "log", "--after", String(log[1].id), "--limit", "100");
    expect(rest).toEqual(log.slice(2));

    const deliveries = await sandbox.cli("webhooks", "deliveries");
    expect(deliveries.stdout).toMatch(/^ID\s+EVENT\s+WEBHOOK\s+STATUS\s+ATTEMPTS\s+LAST\s+CHAOS\s+NEXT ATTEMPT$/m);
    expect(deliveries.stdout).toMatch(/\s(duplicate|reordered|delayed)\s/);
  });
});

describe("`serve --chaos` refuses a bad value before it starts", { timeout: 60_000 }, () => {
  it.each([
    ["42:wild", /unknown profile "wild"/],
    [":rough", /the seed is empty/],
    ["a:b", /unknown profile "b".*with its profile/],
  ])("--chaos %s: exit 2 naming --chaos", async (value, why) => {
    const result = await runCli([
      "serve",
      "--json",
      "--port",
      "0",
      "--otp-port",
      "0",
      "--db",
      ":memory:",
      "--no-state-file",
      "--chaos",
      value,
    ]);
    expect(result.code).toBe(2);
    const failure = JSON.parse(result.stdout.trim());
    expect(failure).toEqual({ error: "usage", message: expect.stringMatching(why) });
    expect(failure.message).toMatch(/^--chaos: /);
    noStack(result.stderr);
  });
});

describe("without chaos", { timeout: 60_000 }, () => {
  const sandbox = useServe();

  it("`chaos status` says off, the log is empty, and `webhooks deliveries` has no CHAOS column", async () => {
    expect(await sandbox.json("chaos", "status")).toEqual({ enabled: false, seed: null, profile: null, rates: null });
    await callApi(sandbox.serve.ready.base_url, "POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook" });
    for (let i = 0; i < 5; i++) {
      await callApi(sandbox.serve.ready.base_url, "POST", "/sandbox/v1/simulate/inbound", {
        from: IPHONE,
        to: MAIN,
        text: `in ${i}`,
      });
    }
    expect(await sandbox.json("chaos", "log")).toEqual([]);
    const deliveries = await sandbox.cli("webhooks", "deliveries");
    expect(deliveries.stdout).toMatch(/^ID\s+EVENT\s+WEBHOOK\s+STATUS\s+ATTEMPTS\s+LAST\s+NEXT ATTEMPT$/m);
    expect(deliveries.stdout).not.toContain("CHAOS");
  });
});
