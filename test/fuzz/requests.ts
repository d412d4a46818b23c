import type { Route } from "../../src/server/route.js";
import { brokenJson, hostileString, hostileValue, nested } from "./hostile-values.js";
import type { Prng } from "./prng.js";

/** The default fixture's keys and handles. */
export const KEYS = { messaging: "sk_test_acme_0000000000000000", otp: "otp_live_acme_000000000000000" } as const;
const MAIN = "+14155550101";
const IPHONE = "+14155550191";

/** Real ids and handles of the running sandbox, so that hostile input reaches the rules behind the lookups. */
export interface Pools {
  messageIds: string[];
  inboundIds: string[];
  conversationIds: string[];
  webhookIds: string[];
  deliveryIds: string[];
  numbers: string[];
  contacts: string[];
}

/** One request as bytes on the wire, and what it was, for the report. */
export interface FuzzRequest {
  host: "messaging" | "otp";
  method: string;
  /** `METHOD /path` of the route table (or `protocol` for raw garbage). */
  route: string;
  kind: string;
  bytes: Buffer;
}

const ODD_METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "QUERY",
  "CONNECT",
];

const any = <T>(rng: Prng, items: T[], fallback: T) => (items.length > 0 ? rng.pick(items) : fallback);

/** A plausible value for a path param, chosen by the collection the path names. */
function paramValue(rng: Prng, path: string, param: string, pools: Pools): string {
  const collection =
    path
      .slice(0, path.indexOf(`:${param}`))
      .split("/")
      .filter(Boolean)
      .at(-1) ?? "";
  const byCollection: Record<string, string[]> = {
    messages: [...pools.messageIds, ...pools.inboundIds],
    chats: pools.conversationIds,
    webhooks: pools.webhookIds,
    deliveries: pools.deliveryIds,
    contacts: pools.contacts.map(encodeURIComponent),
    numbers: pools.numbers.map((n) => (rng.chance(0.5) ? n.slice(1) : encodeURIComponent(n))),
  };
  // A route added later with another collection still gets real ids of some kind.
  const pool = byCollection[collection] ?? Object.values(byCollection).flat();
  return any(rng, pool, "00000000-0000-0000-0000-000000000000");
}

function hostileSegment(rng: Prng): string {
  return rng.pick([
    "%ff",
    "%00",
    "%E2%82",
    "%ZZ",
    "..%2F..%2Fetc",
    "%2F",
    "x".repeat(2_000),
    "x".repeat(12_000),
    "x".repeat(20_000),
    "00000000-0000-0000-0000-000000000000",
    "%F0%9F%91%8D",
    "a;b=c",
    "~",
    ".",
    "%2B1415555019",
    "a@b.co",
  ]);
}

function fillPath(rng: Prng, path: string, pools: Pools): string {
  return path.replace(/:([a-z_]+)/gi, (_match, param: string) =>
    rng.chance(0.75) ? paramValue(rng, path, param, pools) : hostileSegment(rng),
  );
}

function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "%ff"; // a lone surrogate cannot be encoded: send a malformed escape instead
  }
}

const QUERY_KEYS = [
  "limit",
  "before",
  "after",
  "conversation_id",
  "handle",
  "types",
  "events",
  "webhook_id",
  "status",
  "types[]",
  "__proto__",
];

function buildQuery(rng: Prng, pools: Pools): string {
  if (rng.chance(0.5)) return "";
  const pairs: string[] = [];
  // Mostly a few pairs; sometimes hundreds (under the 16 KiB line) or thousands (over it).
  const n = rng.weighted([
    [30, rng.int(1, 3)],
    [2, 300],
    [1, 2_000],
  ]);
  for (let i = 0; i < n; i++) {
    const key = rng.chance(0.9) ? rng.pick(QUERY_KEYS) : encode(hostileString(rng).slice(0, 200));
    const value = rng.weighted<() => string>([
      [
        4,
        () =>
          rng.pick([
            "1",
            "50",
            "100",
            "0",
            "101",
            "-1",
            "abc",
            "1e3",
            "2026-01-01T00:00:00.000Z",
            "message.sent,message.read",
            "pending",
            "",
          ]),
      ],
      [2, () => any(rng, [...pools.messageIds, ...pools.conversationIds, ...pools.webhookIds], "x")],
      [2, () => rng.pick([MAIN, IPHONE, "a@b.co"])],
      [
        3,
        () =>
          hostileString(rng).slice(
            0,
            rng.weighted([
              [6, 100],
              [3, 1_000],
              [1, 3_000],
              [1, 30_000],
            ]),
          ),
      ],
    ])();
    pairs.push(`${key}=${encode(value)}`);
  }
  return `?${pairs.join("&")}`;
}

/** A valid body for each route that takes one; a route without one gets fields from all of them. */
function sampleBody(rng: Prng, route: Route, pools: Pools): Record<string, unknown> {
  const message = any(rng, pools.messageIds, "00000000-0000-0000-0000-000000000000");
  const samples: Record<string, () => Record<string, unknown>> = {
    "POST /v1/messages": () =>
      rng.chance(0.2)
        ? { conversation_id: any(rng, pools.conversationIds, message), text: "hi" }
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
      message_id: any(rng, pools.inboundIds, message),
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
    const key = any(rng, keys, "text");
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
function buildBody(rng: Prng, route: Route, pools: Pools): { kind: string; type: string | null; body: string } {
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

function authorization(rng: Prng, host: "messaging" | "otp"): string | null {
  if (rng.chance(0.85)) return `Bearer ${KEYS[host]}`;
  return rng.pick<string | null>([
    null,
    "Bearer",
    `Bearer ${KEYS[host === "otp" ? "messaging" : "otp"]}`,
    `Basic ${Buffer.from("a:b").toString("base64")}`,
    `Bearer ${"a".repeat(rng.pick([300, 10_000, 70_000]))}`,
    `Bearer ${KEYS[host]}`,
    `Bearer sk_test_${"x".repeat(5_000)}`,
    `bearer   ${KEYS[host]}   `,
    `Bearer ${KEYS[host]}\u00ff`,
  ]);
}

function extraHeaders(rng: Prng): string[] {
  if (rng.chance(0.75)) return [];
  return rng.weighted<() => string[]>([
    [
      3,
      () =>
        Array.from({ length: rng.pick([50, 500, 500, 3_000]) }, (_, i) => `X-Fuzz-${i}: ${"v".repeat(rng.int(0, 20))}`),
    ],
    [2, () => [`X-Big: ${"b".repeat(rng.pick([8_000, 8_000, 20_000]))}`]],
    [2, () => [`Idempotency-Key: ${rng.pick(["", "k", "k".repeat(256), "k".repeat(10_000), "\u00ff\u00fe"])}`]],
    [2, () => [`Expect: ${rng.pick(["100-continue", "teapot", ""])}`]],
    [1, () => ["Content-Length: 5", "Content-Length: 7"]],
    [1, () => ["Transfer-Encoding: chunked", "Content-Length: 3"]],
    [1, () => [`Last-Event-ID: ${rng.pick(["-1", "1e400", "x".repeat(3_000)])}`]],
    [1, () => ["Host: a", "Host: b"]],
    [
      2,
      () => [
        `Origin: ${rng.pick(["null", "http://localhost:3000", "http://evil.example", "https://localhost", "http://[::1", "", "o".repeat(8_000), "http://localhost:99999", "\u00ff"])}`,
      ],
    ],
    [1, () => [`X-Ctl: a\u0000b`]],
  ])();
}

/** The Host header: a name of the sandbox mostly, else one it must refuse (403 forbidden_host). */
function hostHeader(rng: Prng): string {
  if (rng.chance(0.9)) return rng.pick(["localhost", "127.0.0.1", "LOCALHOST.", "app.localhost:1"]);
  return rng.pick([
    "",
    "evil.example",
    "evil.example:4010",
    "localhost.evil.example",
    "127.0.0.1.nip.io",
    "[::1",
    "[::ffff:127.0.0.1]",
    "[fe80::1%25eth0]:80",
    "h".repeat(10_000),
    "local host",
    "localhost:",
    "localhost:99999999",
    "\u00ff\u00fe",
    "0x7f.1",
  ]);
}

/** Raw bytes that are not HTTP, or break HTTP/1.1 framing in one place. */
function protocolGarbage(rng: Prng, path: string): { kind: string; text: string } {
  return rng.pick([
    { kind: "bad method token", text: `BR EW ${path} HTTP/1.1\r\nHost: x\r\n\r\n` },
    { kind: "lower-case method", text: `get ${path} HTTP/1.1\r\nHost: x\r\n\r\n` },
    { kind: "bad version", text: `GET ${path} HTTP/7.0\r\nHost: x\r\n\r\n` },
    { kind: "no version", text: `GET ${path}\r\n\r\n` },
    { kind: "header without colon", text: `GET ${path} HTTP/1.1\r\nHost x\r\n\r\n` },
    { kind: "space before colon", text: `GET ${path} HTTP/1.1\r\nHost : x\r\n\r\n` },
    { kind: "bare LF", text: `GET ${path} HTTP/1.1\nHost: x\n\n` },
    { kind: "binary", text: Buffer.from(Array.from({ length: 64 }, () => rng.int(0, 255))).toString("latin1") },
    { kind: "CONNECT", text: `CONNECT ${rng.pick(["example.com:443", path])} HTTP/1.1\r\nHost: x\r\n\r\n` },
    { kind: "bad chunk size", text: `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n` },
    {
      kind: "huge chunk extension",
      text: `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1;${"e".repeat(20_000)}\r\na\r\n0\r\n\r\n`,
    },
    { kind: "HTTP/1.0 without Host", text: `GET ${path} HTTP/1.0\r\n\r\n` },
    { kind: "absolute URI", text: `GET http://elsewhere${path} HTTP/1.1\r\nHost: x\r\n\r\n` },
    { kind: "asterisk", text: "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n" },
  ]);
}

/** One fuzz request for `route` of `host`, as bytes. */
export function buildRequest(rng: Prng, host: "messaging" | "otp", route: Route, pools: Pools): FuzzRequest {
  const path = fillPath(rng, route.path, pools);
  const name = `${route.method} ${route.path}`;
  if (rng.chance(0.04)) {
    const garbage = protocolGarbage(rng, path);
    return {
      host,
      method: "?",
      route: name,
      kind: `protocol: ${garbage.kind}`,
      bytes: Buffer.from(garbage.text, "latin1"),
    };
  }
  const method = rng.chance(0.85) ? route.method : rng.pick(ODD_METHODS);
  const target = path + buildQuery(rng, pools);
  const withBody = method !== "GET" && method !== "HEAD" ? rng.chance(0.95) : rng.chance(0.1);
  const body = withBody ? buildBody(rng, route, pools) : { kind: "no body", type: null, body: "" };
  const headers = [`Host: ${hostHeader(rng)}`];
  const auth = route.auth === false && rng.chance(0.5) ? null : authorization(rng, host);
  if (auth !== null) headers.push(`Authorization: ${auth}`);
  if (body.type !== null) headers.push(`Content-Type: ${body.type}`);
  headers.push(...extraHeaders(rng));
  const payload = Buffer.from(body.body, "utf8");
  const chunked = payload.length > 0 && rng.chance(0.1);
  if (chunked) headers.push("Transfer-Encoding: chunked");
  else if (payload.length > 0 || rng.chance(0.5)) headers.push(`Content-Length: ${payload.length}`);
  headers.push("Connection: close");
  const head = Buffer.from(`${method} ${target} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`, "utf8");
  const framed = chunked
    ? Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from("\r\n0\r\n\r\n")])
    : payload;
  return { host, method, route: name, kind: body.kind, bytes: Buffer.concat([head, framed]) };
}
