import { beforeEach, describe, expect, it } from "vitest";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/**
 * Chaos and snapshots (docs/chaos.md, "Snapshots, resets and restarts"): chaos is part of the
 * sandbox a snapshot holds, its numbering included, so a suite that restores before each test
 * gets the same decisions in each test whatever ran before it.
 */

const ok = async () => new Response(null, { status: 204 });

async function inbound(t: TestSandbox, count: number) {
  for (let i = 0; i < count; i++) {
    const res = await t.api("POST", "/sandbox/v1/simulate/inbound", {
      body: { from: "+14155550191", to: "+14155550101", text: `in ${i}` },
    });
    expect(res.status).toBe(201);
  }
}

/** The log's decisions without ids and times: what, which event or message, by how much. */
async function decisions(t: TestSandbox): Promise<string[]> {
  const res = await t.api("GET", "/sandbox/v1/chaos/log?limit=100");
  return (res.body.data as Record<string, unknown>[]).map((e) =>
    [e.kind, e.event_type, e.event_number, e.endpoint_number, e.delay_ms].join(" "),
  );
}

const status = async (t: TestSandbox) => (await t.api("GET", "/sandbox/v1/chaos")).body.data;

describe("chaos in snapshots", () => {
  const t = useSandbox({ fetch: ok as typeof fetch });
  beforeEach(async () => {
    await t.api("DELETE", "/sandbox/v1/chaos");
    await t.sandbox.control.reset();
    await t.api("DELETE", "/sandbox/v1/snapshots/before");
  });

  it("a restore brings back the chaos and its numbering: the same calls after it make the same decisions", async () => {
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: "snap-1", profile: "rough" } });
    await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
    await inbound(t, 3);
    expect((await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "before" } })).status).toBe(201);
    const logBefore = await decisions(t);

    await inbound(t, 20);
    await t.advance(120_000);
    const first = await decisions(t);
    expect(first.length).toBeGreaterThan(logBefore.length);

    expect((await t.api("POST", "/sandbox/v1/snapshots/before/restore")).status).toBe(200);
    expect(await decisions(t)).toEqual(logBefore);
    await inbound(t, 20);
    await t.advance(120_000);
    expect(await decisions(t)).toEqual(first);
  });

  it("a restore sets chaos as it was when the snapshot was saved, on or off", async () => {
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "before" } });
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: 7, profile: "rough" } });
    await t.api("POST", "/sandbox/v1/snapshots/before/restore");
    expect(await status(t)).toMatchObject({ enabled: false });

    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: 7 } });
    await t.api("POST", "/sandbox/v1/snapshots", { body: { name: "before" } });
    await t.api("DELETE", "/sandbox/v1/chaos");
    await t.api("POST", "/sandbox/v1/snapshots/before/restore");
    expect(await status(t)).toMatchObject({ enabled: true, seed: 7, profile: "mild" });
  });
});
