import { describe, expect, it } from "vitest";
import { useSandbox } from "../helpers/sandbox.js";
import { check, failed, probe, PROBES, useCheckHandlers } from "../helpers/webhook-check.js";
import type { HandlerFlaws } from "../helpers/webhook-handlers.js";

const handlerWith = useCheckHandlers();

describe("a broken handler fails exactly the probes it breaks, saying what to change", () => {
  const t = useSandbox();
  const REFUSALS = PROBES.slice(2, 9);

  it.each<[string, HandlerFlaws, string[], RegExp]>([
    ["accepts everything", { signature: "unchecked" }, REFUSALS, /accepted with 200: .*raw, unparsed body/],
    [
      "checks the signature but not the timestamp",
      { signature: "no-timestamp" },
      ["stale_timestamp", "future_timestamp"],
      /accepted with 200: t is 301 s in the past: reject \|now - t\| > 300 s/,
    ],
    [
      "rejects only past timestamps",
      { signature: "past-only" },
      ["future_timestamp"],
      /accepted with 200: t is 301 s in the future: the replay window holds both ways/,
    ],
    [
      "computes the HMAC over the JSON serialised again, not the raw body",
      { signature: "reserialized-body" },
      ["valid_event", "duplicate_event"],
      /answered 400: .*raw body, byte for byte: this one was sent indented/,
    ],
    [
      "takes a signature of any scheme for v1",
      { signature: "any-scheme" },
      ["missing_v1"],
      /accepted with 200: the header has t and a v0 signature but no v1/,
    ],
    [
      "decodes v1 leniently and compares what it got",
      { signature: "prefix-compare" },
      ["v1_not_hex"],
      /accepted with 200: v1 ends in z, not a hex digit/,
    ],
    [
      "rejects duplicates (409)",
      { duplicates: "refused" },
      ["duplicate_event"],
      /answered 409: a repeat of an event must be acknowledged again \(2xx\) and skipped/,
    ],
    [
      "is not idempotent: a repeat breaks a unique key (500)",
      { duplicates: "crash" },
      ["duplicate_event"],
      /answered 500: a repeat of an event/,
    ],
    [
      "500s on a read before its delivery",
      { order: "read-needs-delivered" },
      ["read_before_delivered"],
      /answered 500: message.read came before message.delivered of the same message/,
    ],
    [
      "500s when a message's state would go back",
      { order: "no-going-back" },
      ["delivered_after_read"],
      /answered 500: message.delivered came after message.read .*keep the furthest state/,
    ],
    [
      "refuses a payload with a field it does not know",
      { unknownFields: "refused" },
      ["unknown_field"],
      /answered 400: the payload has a field your handler does not know/,
    ],
  ])("one that %s", async (_name, flaws, failing, why) => {
    const handler = await handlerWith(flaws);
    const report = await check(t, handler.url);
    expect(report.passed).toBe(false);
    expect(failed(report)).toEqual(failing);
    expect(probe(report, failing[0] as string).why).toMatch(why);
  });

  it("one verifying with another secret refuses every valid event: the why names the secret", async () => {
    const handler = await handlerWith({}, "whsec_another_secret_entirely");
    const report = await check(t, handler.url);
    expect(failed(report)).toEqual([
      "valid_event",
      "duplicate_event",
      "read_before_delivered",
      "delivered_after_read",
      "unknown_field",
    ]);
    expect(probe(report, "valid_event").why).toMatch(/^answered 400: .*Check the secret \(the whole whsec_… string\)/);
    // The others refused alike point back to it rather than to their own point (order, fields).
    expect(probe(report, "read_before_delivered").why).toBe("answered 400, as valid_event was: fix that one first");
  });

  it("one serving another path: a 404 asks whether the URL's path is the handler's", async () => {
    const handler = await handlerWith();
    const report = await check(t, handler.url.replace("/webhooks", ""));
    expect(probe(report, "valid_event").why).toMatch(/^answered 404 .*\(is the URL's path/);
  });

  it("a refusal with a 5xx passes, with a word on 4xx", async () => {
    const handler = await handlerWith({ refusal: 500 });
    const report = await check(t, handler.url);
    expect(report.passed).toBe(true);
    expect(probe(report, "wrong_secret").why).toMatch(/^refused with 500; a 4xx would say the request was at fault/);
  });
});
