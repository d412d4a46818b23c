import type { Route } from "../../src/server/route.js";
import { hostileString } from "./hostile-values.js";
import { anyOf, IPHONE, KEYS, MAIN, type Pools } from "./pools.js";
import type { Prng } from "./prng.js";
import { buildBody } from "./request-bodies.js";

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
  return anyOf(rng, pool, "00000000-0000-0000-0000-000000000000");
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
      [2, () => anyOf(rng, [...pools.messageIds, ...pools.conversationIds, ...pools.webhookIds], "x")],
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
