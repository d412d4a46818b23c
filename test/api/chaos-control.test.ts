import { beforeEach, describe, expect, it } from "vitest";
import { decideDelivery } from "../../src/domain/chaos/index.js";
import { MILD_RATES, ROUGH_RATES, seedWhere } from "../helpers/chaos.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/** PUT, GET and DELETE /sandbox/v1/chaos and GET /sandbox/v1/chaos/log (docs/chaos.md, docs/control-api.md). */

const OFF = { enabled: false, seed: null, profile: null, rates: null };

const status = async (t: TestSandbox) => (await t.api("GET", "/sandbox/v1/chaos")).body.data;

/** A fresh sandbox with chaos off before each test (a reset keeps chaos on). */
function resetBeforeEach(t: TestSandbox) {
  beforeEach(async () => {
    await t.sandbox.control.reset();
    await t.api("DELETE", "/sandbox/v1/chaos");
  });
}

/** A delivery decision with nothing in it, and one with only a copy. */
const nothing = (d: ReturnType<typeof decideDelivery>) =>
  d.duplicateAfterMs === undefined && d.extraWaitMs === undefined && !d.swap;
const copyOnly = (d: ReturnType<typeof decideDelivery>) =>
  d.duplicateAfterMs !== undefined && d.extraWaitMs === undefined && !d.swap;

async function inbound(t: TestSandbox, text: string, key?: string, to = "+14155550101") {
  const res = await t.api("POST", "/sandbox/v1/simulate/inbound", { body: { from: "+14155550191", to, text }, key });
  expect(res.status).toBe(201);
}

describe("/sandbox/v1/chaos: switching seeded chaos on and off", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("is off until switched on", async () => {
    const res = await t.api("GET", "/sandbox/v1/chaos");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: OFF, request_id: expect.stringMatching(/^req_/) });
  });

  it("PUT takes an integer or a string seed; the profile is mild unless rough is asked for", async () => {
    let res = await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: 42 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ enabled: true, seed: 42, profile: "mild", rates: MILD_RATES });
    res = await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: "ci-1234", profile: "rough" } });
    expect(res.body.data).toEqual({ enabled: true, seed: "ci-1234", profile: "rough", rates: ROUGH_RATES });
    expect(await status(t)).toEqual(res.body.data);
  });

  it("DELETE switches it off, and again is no error", async () => {
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: 1 } });
    for (let i = 0; i < 2; i++) {
      const res = await t.api("DELETE", "/sandbox/v1/chaos");
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(OFF);
    }
    expect(await status(t)).toEqual(OFF);
  });

  it.each([
    [undefined, /^body: required, e\.g\. \{ "seed": 42, "profile": "mild" \}$/],
    [{}, /^seed: /],
    [{ seed: "" }, /^seed: must not be empty/],
    [{ seed: "x".repeat(201) }, /^seed: /],
    [{ seed: 1.5 }, /^seed: must be a string of 1-200 characters or a whole number/],
    [{ seed: { n: 1 } }, /^seed: /],
    [{ seed: 1, profile: "wild" }, /^profile: .*mild.*rough/],
    [{ seed: 1, rates: { duplicate: 1 } }, /rates/],
    [[1], /^body: must be an object, not an array$/],
  ])("PUT %j is 400 invalid_request naming the field, and changes nothing", async (body, message) => {
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: "before", profile: "rough" } });
    const res = await t.api("PUT", "/sandbox/v1/chaos", { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_request", message: expect.stringMatching(message) });
    expect(await status(t)).toMatchObject({ enabled: true, seed: "before", profile: "rough" });
  });

  it("the same seed and profile again change nothing: the numbering goes on; another seed starts it again", async () => {
    // Seeds whose decisions tell the numbering apart: event 1 meets no chaos, event 2 is copied.
    const seed = seedWhere((c) => nothing(decideDelivery(c, 1, 1)) && copyOnly(decideDelivery(c, 2, 1)));
    const other = seedWhere((c) => copyOnly(decideDelivery(c, 1, 1)) && seed !== c.seed);
    await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
    const log = async () =>
      ((await t.api("GET", "/sandbox/v1/chaos/log")).body.data as { kind: string; event_number: number }[]).map(
        (e) => `${e.kind} ${e.event_number}`,
      );
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed, profile: "rough" } });
    await inbound(t, "one");
    expect(await log()).toEqual([]);
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed, profile: "rough" } });
    await inbound(t, "two");
    expect(await log()).toEqual(["duplicate 2"]);
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: other, profile: "rough" } });
    await inbound(t, "three");
    expect(await log()).toEqual(["duplicate 2", "duplicate 1"]);
  });

  it("is sandbox-wide: any account's key switches it, and every account sees it", async () => {
    const other = (await t.api("POST", "/sandbox/v1/accounts", { body: {} })).body.data as { api_key: string };
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: 9 }, key: other.api_key });
    expect(await status(t)).toMatchObject({ enabled: true, seed: 9 });
  });

  it("a reset keeps it on", async () => {
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: 3, profile: "rough" } });
    await t.api("POST", "/sandbox/v1/reset");
    expect(await status(t)).toMatchObject({ enabled: true, seed: 3, profile: "rough" });
  });

  it("on the OTP host there is no chaos route", async () => {
    const res = await t.otp("GET", "/sandbox/v1/chaos");
    expect(res.status).toBe(404);
  });
});

describe("GET /sandbox/v1/chaos/log", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  async function withDecisions() {
    await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
    await t.api("PUT", "/sandbox/v1/chaos", { body: { seed: "log", profile: "rough" } });
    for (let i = 0; i < 20; i++) await inbound(t, `m${i}`);
  }

  it("lists the account's decisions oldest first, each with what, which event and endpoint, and when", async () => {
    await withDecisions();
    const res = await t.api("GET", "/sandbox/v1/chaos/log");
    expect(res.status).toBe(200);
    const entries = res.body.data as Record<string, unknown>[];
    expect(entries.length).toBeGreaterThan(3);
    expect(res.body.has_more).toBe(false);
    const ids = entries.map((e) => e.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    for (const entry of entries) {
      expect(entry).toEqual({
        id: expect.any(Number),
        at: expect.stringMatching(/Z$/),
        kind: expect.stringMatching(/^(duplicate|reordered|delayed)$/),
        event_id: expect.any(String),
        event_type: "message.received",
        event_number: expect.any(Number),
        webhook_id: expect.any(String),
        endpoint_number: 1,
        delivery_id: expect.any(String),
        message_id: null,
        message_number: null,
        handle: null,
        receipt: null,
        member: null,
        delay_ms: expect.any(Number),
      });
    }
  });

  it("pages with after and limit", async () => {
    await withDecisions();
    const all = (await t.api("GET", "/sandbox/v1/chaos/log")).body.data as { id: number }[];
    const first = await t.api("GET", "/sandbox/v1/chaos/log?limit=2");
    expect(first.body.data.map((e: { id: number }) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(first.body.has_more).toBe(true);
    const rest = await t.api("GET", `/sandbox/v1/chaos/log?after=${all[1]?.id}&limit=100`);
    expect(rest.body.data.map((e: { id: number }) => e.id)).toEqual(all.slice(2).map((e) => e.id));
  });

  it("order=desc lists newest first: the newest page at once, then after an id", async () => {
    await withDecisions();
    const all = (await t.api("GET", "/sandbox/v1/chaos/log")).body.data as { id: number }[];
    const newest = await t.api("GET", "/sandbox/v1/chaos/log?order=desc&limit=2");
    expect(newest.body.data.map((e: { id: number }) => e.id)).toEqual(
      all
        .slice(-2)
        .reverse()
        .map((e) => e.id),
    );
    expect(newest.body.has_more).toBe(true);
    const after = await t.api("GET", `/sandbox/v1/chaos/log?order=desc&after=${all[0]?.id}`);
    expect(after.body.data.map((e: { id: number }) => e.id)).toEqual(
      all
        .slice(1)
        .reverse()
        .map((e) => e.id),
    );
  });

  it.each(["limit=0", "limit=101", "after=-1", "after=x", "order=newest"])(
    "?%s is 400 invalid_request naming it",
    async (query) => {
      const res = await t.api("GET", `/sandbox/v1/chaos/log?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: "invalid_request",
        message: expect.stringMatching(/^(limit|after|order): /),
      });
    },
  );

  it("shows only the account's own decisions", async () => {
    await withDecisions();
    const other = (await t.api("POST", "/sandbox/v1/accounts", { body: {} })).body.data as { api_key: string };
    const res = await t.api("GET", "/sandbox/v1/chaos/log", { key: other.api_key });
    expect(res.body.data).toEqual([]);
  });

  it("is empty while chaos was never on", async () => {
    await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
    for (let i = 0; i < 20; i++) await inbound(t, `m${i}`);
    expect((await t.api("GET", "/sandbox/v1/chaos/log")).body.data).toEqual([]);
  });
});
