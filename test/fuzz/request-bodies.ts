import type { Route } from "../../src/server/route.js";
import { brokenJson, hostileString, hostileValue, nested } from "./hostile-values.js";
import { anyOf, IPHONE, MAIN, type Pools } from "./pools.js";
import type { Prng } from "./prng.js";

/** A valid body for each route that takes one; a route without one gets fields from all of them. */
function sampleBody(rng: Prng, route: Route, pools: Pools): Record<string, unknown> {
  const message = anyOf(rng, pools.messageIds, "00000000-0000-0000-0000-000000000000");
  const samples: Record<string, () => Record<string, unknown>> = {
    "POST /v1/messages": () =>
      rng.chance(0.2)
        ? { conversation_id: anyOf(rng, pools.conversationIds, message), text: "hi" }
        : {
            to: rng.pick([IPHONE, "+14155550172", "a@b.co"]),
            from_handle: rng.pick([MAIN, "+14155550103"]),
            text: "hi",
            ...(rng.chance(0.3) ? { effect: "slam", reply_to: message, voice_memo: false, media_quality: "fit" } : {}),
          },
    "POST /v1/messages/:id/react": () => ({ reaction: rng.pick(["love", "👍", "👨‍👩‍👧‍👦"]), remove: rng.chance(0.2) }),
    "POST /v1/messages/:id/edit": () => ({ text: "edited" }),
    "POST /v1/webhooks": () => ({
      url: rng.pick(["http://127.0.0.1:9/hook", "http://localhost:9/h", "https://hooks.example.com/x"]),
      events: ["message.sent"],
      secret: "whsec_0123456789abcdef",
    }),
    "PATCH /v1/webhooks/:id": () => ({
      url: "http://127.0.0.1:9/other",
      events: ["message.read"],
      enabled: rng.chance(0.5),
      secret: "0123456789abcdefXYZ",
    }),
    "POST /sandbox/v1/clock/advance": () =>
      rng.chance(0.5) ? { duration: rng.pick(["200ms", "1s", "3s", "1m"]) } : { ms: rng.pick([0, 200, 5_000]) },
    "POST /sandbox/v1/reset": () => ({}),
    "POST /sandbox/v1/simulate/inbound": () => ({
      from: IPHONE,
      to: MAIN,
      text: "hello",
      channel: rng.pick(["imessage", "sms"]),
    }),
    "POST /sandbox/v1/simulate/reaction": () => ({
      message_id: message,
      from: IPHONE,
      reaction: "love",
      remove: false,
    }),
    "POST /sandbox/v1/simulate/typing": () => ({ from: IPHONE, to: MAIN, typing: true }),
    "POST /sandbox/v1/simulate/edit": () => ({
      message_id: anyOf(rng, pools.inboundIds, message),
      text: "edited by the contact",
    }),
    "POST /sandbox/v1/messages/:id/fail": () => ({ error: "boom" }),
    "PATCH /sandbox/v1/contacts/:handle": () => ({
      imessage: true,
      platform: "ios",
      whatsapp: true,
      reachable: true,
      read_receipts: true,
    }),
    "POST /sandbox/v1/numbers/:handle/faults": () => ({
      fault: rng.pick(["transient", "rate-limited", "offline"]),
      count: 1,
      off: rng.chance(0.7),
    }),
  };
  const sample = samples[`${route.method} ${route.path}`];
  if (sample) return sample();
  // Unknown route (added after this file): every field name the API knows, valid values.
  const all = Object.values(samples).reduce<Record<string, unknown>>((fields, make) => ({ ...fields, ...make() }), {});
  return Object.fromEntries(Object.entries(all).filter(() => rng.chance(0.3)));
}

/** The sample with one to three fields made hostile, dropped, or added. */
function mutated(rng: Prng, sample: Record<string, unknown>): Record<string, unknown> {
  const body = { ...sample };
  const keys = Object.keys(body);
  for (let n = rng.int(1, 3); n > 0; n--) {
    const action =
      keys.length === 0
        ? "add"
        : rng.weighted([
            [7, "hostile"],
            [1, "drop"],
            [2, "add"],
          ] as const);
    const key = anyOf(rng, keys, "text");
    if (action === "hostile") body[key] = hostileValue(rng, body[key]);
    else if (action === "drop") delete body[key];
    else
      body[
        rng.pick([
          "text",
          "to",
          "reaction",
          "url",
          "fixture",
          "phone",
          "duration",
          "message_id",
          hostileString(rng).slice(0, 150),
        ])
      ] = hostileValue(rng);
  }
  return body;
}

/** A body and its content type: mostly JSON near the route's own, sometimes anything at all. */
export function buildBody(rng: Prng, route: Route, pools: Pools): { kind: string; type: string | null; body: string } {
  const json = (kind: string, value: unknown) => ({
    kind,
    type: "application/json",
    body: JSON.stringify(value) ?? "null",
  });
  return rng.weighted<() => { kind: string; type: string | null; body: string }>([
    [45, () => json("hostile field", mutated(rng, sampleBody(rng, route, pools)))],
    [8, () => json("valid", sampleBody(rng, route, pools))],
    [3, () => json("deep JSON", nested(rng, rng.pick([31, 33, 1_000]), sampleBody(rng, route, pools)))],
    [
      3,
      () => {
        // Built as text: JSON.stringify itself would overflow the stack at this depth.
        const depth = rng.pick([10_000, 100_000, 400_000]);
        const [open, close] = rng.chance(0.5) ? ["[", "]"] : ['{"a":', "}"];
        return { kind: "deep JSON", type: "application/json", body: `${open.repeat(depth)}1${close.repeat(depth)}` };
      },
    ],
    [6, () => ({ kind: "broken JSON", type: "application/json", body: brokenJson(rng) })],
    [4, () => json("not an object", rng.pick([null, 42, "hello", [1, 2], true]))],
    [
      5,
      () => {
        const boundary = rng.pick(["x", "", "-".repeat(80), "a\u0000b"]);
        const body = rng.pick([
          `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc`,
          `--${boundary}--`,
          "not multipart",
          `--${boundary}\r\n\r\n${"x".repeat(100_000)}`,
        ]);
        return {
          kind: "broken multipart",
          type: rng.pick([`multipart/form-data; boundary=${boundary}`, "multipart/form-data"]),
          body,
        };
      },
    ],
    [
      4,
      () => ({
        kind: "other content type",
        type: rng.pick([
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/xml",
          "application/json; charset=latin1",
          "application/vnd.api+json",
          "",
          "*/*",
        ]),
        body: "a=1&b=2",
      }),
    ],
    [4, () => ({ kind: "empty", type: rng.pick(["application/json", null]), body: "" })],
    [
      4,
      () => {
        // The largest legal body (1 MiB exactly) or one byte over: every string field filled.
        const key = rng.pick(Object.keys(sampleBody(rng, route, pools)).concat("pad"));
        const size = 1024 * 1024 + rng.pick([0, 0, 1]);
        const prefix = `{"${key}":"`;
        return {
          kind: size > 1024 * 1024 ? "over 1 MiB" : "1 MiB",
          type: "application/json",
          body: `${prefix}${"x".repeat(size - prefix.length - 2)}"}`,
        };
      },
    ],
  ])();
}
