import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useSandbox } from "../helpers/sandbox.js";
import { check, failed, probe, PROBES, SECRET, useCheckHandlers } from "../helpers/webhook-check.js";

const handlerWith = useCheckHandlers();
const createHmacHex = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");

describe("POST /sandbox/v1/webhooks/check: a correct handler passes every probe", () => {
  const t = useSandbox();

  it("12 probes, 0 failures: valid events acknowledged, forgeries refused, each within 10 s", async () => {
    const handler = await handlerWith();
    const report = await check(t, handler.url);
    expect(report).toMatchObject({ url: handler.url, passed: true });
    expect(failed(report)).toEqual([]);
    for (const result of report.probes) {
      expect(result.ms).toBeGreaterThanOrEqual(0);
      expect(result.ms).toBeLessThan(10_000);
    }
    expect(probe(report, "valid_event")).toMatchObject({ status: 200, why: "acknowledged with 200" });
    expect(probe(report, "stale_timestamp")).toMatchObject({ status: 400, why: "refused with 400" });
    // The repeat passes, with the reminder that no status code shows whether it was acted on twice.
    expect(probe(report, "duplicate_event").why).toMatch(/^acknowledged with 200; .*X-Msgctl-Event-Id/);
    // It acted once on each event: the repeat was skipped.
    expect(handler.handled).toHaveLength(4);
  });

  it("sends what the contract names: one request per probe, signed as deliveries are", async () => {
    const handler = await handlerWith();
    await check(t, handler.url);
    const sent = handler.requests;
    expect(sent.map((r) => r.headers["x-msgctl-check"])).toEqual(PROBES);
    const at = (name: string) => sent[PROBES.indexOf(name)] as (typeof sent)[number];
    const t0 = Number(/t=(\d+)/.exec(String(at("valid_event").headers["x-service-signature"]))?.[1]);
    expect(Math.abs(t0 - Date.now() / 1000)).toBeLessThan(60);
    for (const request of sent) expect(request.headers["content-type"]).toBe("application/json");

    // The repeat: the same event id and body, signed again, as a retry's attempt 2.
    expect(at("duplicate_event").headers["x-msgctl-event-id"]).toBe(at("valid_event").headers["x-msgctl-event-id"]);
    expect(at("duplicate_event").body).toBe(at("valid_event").body);
    expect(at("duplicate_event").headers["x-msgctl-attempt"]).toBe("2");
    expect(JSON.parse(at("valid_event").body)).toMatchObject({ type: "message.received", to: "+14155550101" });

    // One byte changed after signing: same length, one position differs, still JSON.
    const tampered = at("tampered_body").body;
    expect(JSON.parse(tampered).type).toBe("message.received");
    const { headers } = at("tampered_body");
    const signedFor = (secret: string, t: number, body: string) => `t=${t},v1=${createHmacHex(secret, `${t}.${body}`)}`;
    const tT = Number(/t=(\d+)/.exec(String(headers["x-service-signature"]))?.[1]);
    expect(headers["x-service-signature"]).not.toBe(signedFor(SECRET, tT, tampered));
    const original = tampered.replace('"text":"M', '"text":"m');
    expect(headers["x-service-signature"]).toBe(signedFor(SECRET, tT, original));
    expect([...original].filter((c, i) => c !== tampered[i])).toHaveLength(1);

    // Timestamps 301 s either side of now.
    const tOf = (name: string) => Number(/t=(\d+)/.exec(String(at(name).headers["x-service-signature"]))?.[1]);
    expect(t0 - tOf("stale_timestamp")).toBeGreaterThanOrEqual(300);
    expect(t0 - tOf("stale_timestamp")).toBeLessThanOrEqual(302);
    expect(tOf("future_timestamp") - t0).toBeGreaterThanOrEqual(300);
    expect(tOf("future_timestamp") - t0).toBeLessThanOrEqual(302);

    // The malformed headers.
    expect(at("missing_signature").headers["x-service-signature"]).toBeUndefined();
    expect(at("missing_v1").headers["x-service-signature"]).toMatch(/^t=\d+,v0=[0-9a-f]{64}$/);
    expect(at("v1_not_hex").headers["x-service-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{63}z$/);

    // message.read, then message.delivered, of one message.
    const read = JSON.parse(at("read_before_delivered").body);
    const delivered = JSON.parse(at("delivered_after_read").body);
    expect([read.type, delivered.type]).toEqual(["message.read", "message.delivered"]);
    expect(read.message_id).toBe(delivered.message_id);

    // A field no event has.
    const extra = Object.keys(JSON.parse(at("unknown_field").body)).filter(
      (key) => !Object.hasOwn(JSON.parse(at("valid_event").body), key),
    );
    expect(extra).toHaveLength(1);
  });

  it("records nothing: no event, no delivery, no endpoint", async () => {
    const handler = await handlerWith();
    await check(t, handler.url);
    expect((await t.api("GET", "/sandbox/v1/events")).body.data).toEqual([]);
    expect((await t.api("GET", "/sandbox/v1/deliveries")).body.data).toEqual([]);
    expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
  });
});

describe("timing: every answer within the acknowledgement window", () => {
  const t = useSandbox();

  it("a handler doing its work before answering fails every new event it accepts, by timeout", async () => {
    // The window is the webhook_timeout_ms setting (10 s by default, spec section 6); shortened here.
    await t.api("PATCH", "/sandbox/v1/settings", { body: { webhook_timeout_ms: 400 } });
    try {
      const handler = await handlerWith({ slowMs: 3_000 });
      const report = await check(t, handler.url);
      // The repeat is answered at once (it is skipped); the new events wait for the work.
      const accepting = ["valid_event", "read_before_delivered", "delivered_after_read", "unknown_field"];
      expect(failed(report)).toEqual(accepting);
      for (const name of accepting) {
        expect(probe(report, name)).toMatchObject({
          status: null,
          verdict: "fail",
          why: "no answer within 400 ms: a handler must answer within 400 ms (answer first, do slow work afterwards)",
        });
        expect(probe(report, name).ms).toBeGreaterThanOrEqual(390);
      }
    } finally {
      await t.api("PATCH", "/sandbox/v1/settings", { body: { webhook_timeout_ms: 10_000 } });
    }
  });
});

describe("what cannot be checked is refused", () => {
  const t = useSandbox();

  it("nothing listening: 422 unreachable naming the URL", async () => {
    const handler = await handlerWith();
    await handler.close();
    const res = await t.api("POST", "/sandbox/v1/webhooks/check", { body: { url: handler.url, secret: SECRET } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "unreachable" });
    expect(res.body.message).toContain(`Cannot reach the handler at ${handler.url}`);
    expect(res.body.message).toContain("ECONNREFUSED");
  });

  it.each([
    [{ secret: SECRET }, "invalid_request", /url/],
    [{ url: "http://127.0.0.1:9/webhooks" }, "invalid_request", /secret/],
    [{ url: "http://127.0.0.1:9/webhooks", secret: "short" }, "invalid_request", /secret: must be 16-200 characters/],
    [{ url: "ftp://127.0.0.1/webhooks", secret: SECRET }, "invalid_url", /url/],
    [{ url: "http://10.0.0.8/webhooks", secret: SECRET }, "invalid_url", /private address/],
    [{ url: "http://169.254.169.254/webhooks", secret: SECRET }, "invalid_url", /metadata/],
  ])("%j: 400 %s", async (body, code, message) => {
    const res = await t.api("POST", "/sandbox/v1/webhooks/check", { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
    expect(res.body.message).toMatch(message);
  });

  it("no body: 400 naming an example", async () => {
    const res = await t.api("POST", "/sandbox/v1/webhooks/check");
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^body: required, e.g. /);
  });
});

describe("loopback is allowed even under strict URLs (the handler under test is local)", () => {
  const t = useSandbox({ settings: { strictUrls: true } });

  it("checks a 127.0.0.1 handler that an endpoint could not use", async () => {
    const handler = await handlerWith();
    const created = await t.api("POST", "/v1/webhooks", { body: { url: handler.url } });
    expect(created.status).toBe(400);
    const report = await check(t, handler.url);
    expect(report.passed).toBe(true);
  });
});
