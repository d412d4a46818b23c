import { describe, expect, it } from "vitest";
import { messagingRoutes, otpRoutes } from "../../src/server/hosts.js";
import { useSandbox, type Answer } from "../helpers/sandbox.js";

const BODIES: [string, string, string][] = [
  ["not JSON", "{nope", "application/json"],
  ["a JSON array", "[1,2,3]", "application/json"],
  ["JSON null", "null", "application/json"],
  ["a JSON number", "42", "application/json"],
  ["a JSON string", '"hello"', "application/json"],
  ["deeply nested JSON", `${"[".repeat(5000)}${"]".repeat(5000)}`, "application/json"],
  [
    "wrong types everywhere",
    JSON.stringify({
      to: 5,
      from_handle: [],
      text: {},
      url: 7,
      events: "all",
      secret: 1,
      enabled: "yes",
      title: 3,
      handle: null,
      reaction: 9,
      phone: 12,
      duration: 5,
      ms: "x",
    }),
    "application/json",
  ],
  [
    "huge strings",
    JSON.stringify({ to: "x".repeat(100_000), text: "y".repeat(500_000), url: `https://${"a".repeat(5000)}.com` }),
    "application/json",
  ],
  ["form data", "a=1&b=2", "application/x-www-form-urlencoded"],
];

const PARAMS = [
  "nope",
  "00000000-0000-0000-0000-000000000000",
  "%00",
  "%E2%82",
  "x".repeat(2000),
  "..%2F..%2Fetc",
  "%2B14155550101",
  "'; DROP TABLE messages; --",
];
const QUERIES = [
  "limit=abc",
  "limit=-1",
  "limit=1000000000000000000000",
  "before=yesterday",
  "before=",
  "conversation_id=nope",
  "after=-5",
  "types=,,,",
  "handle=",
  "status=%00",
  "limit=1&limit=2",
];

/** Fills a route's `:params` with a value. */
const fill = (path: string, value: string) => path.replace(/:[a-z_]+/gi, value);

function expectClientError(res: Answer, what: string) {
  expect(res.status, `${what} → ${res.status} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} → ${res.status} ${JSON.stringify(res.body)}`).toBeLessThan(500);
  expect(res.body, what).toEqual({
    error: expect.any(String),
    message: expect.any(String),
    request_id: expect.stringMatching(/^req_/),
  });
}

describe("bad input never reaches a 5xx (spec section 7, docs/spec-decisions.md)", () => {
  const t = useSandbox();

  for (const [host, routes] of [
    ["messaging", messagingRoutes],
    ["otp", otpRoutes],
  ] as const) {
    const call = (method: string, path: string, options: Parameters<typeof t.api>[2]) =>
      host === "otp" ? t.otp(method, path, options) : t.api(method, path, options);
    const withBody = routes.filter((r) => r.method !== "GET" && r.auth !== false);

    describe(`${host} host`, () => {
      it.each(withBody.map((r) => [`${r.method} ${r.path}`, r] as const))(
        "%s refuses bad bodies with a 4xx",
        async (_name, route) => {
          for (const [what, body, type] of BODIES) {
            const res = await call(route.method, fill(route.path, "00000000-0000-0000-0000-000000000000"), {
              body,
              headers: { "content-type": type },
            });
            if (res.status < 400) continue; // some routes ignore bodies (retry, rotate-secret): fine, as long as nothing breaks
            expectClientError(res, `${route.method} ${route.path} with ${what}`);
          }
        },
      );

      it.each(routes.filter((r) => r.path.includes(":")).map((r) => [`${r.method} ${r.path}`, r] as const))(
        "%s refuses odd path params with a 4xx",
        async (_name, route) => {
          for (const value of PARAMS) {
            // A real number is a valid value where the param is a handle (contacts, number faults).
            if (route.path.includes(":handle") && value === "%2B14155550101") continue;
            const res = await call(route.method, fill(route.path, value), {
              body: route.method === "GET" || route.method === "HEAD" || route.method === "DELETE" ? undefined : {},
            });
            // A HEAD answer has no body (RFC 9110), so only its status can be checked.
            if (route.method === "HEAD")
              expect(res.status >= 400 && res.status < 500, `HEAD ${route.path} → ${res.status}`).toBe(true);
            else expectClientError(res, `${route.method} ${fill(route.path, value).slice(0, 80)}`);
          }
        },
      );

      it.each(routes.filter((r) => r.method === "GET" && !r.path.includes("stream")).map((r) => [r.path, r] as const))(
        "GET %s survives odd query strings",
        async (_name, route) => {
          for (const query of QUERIES) {
            const res = await call("GET", `${fill(route.path, "00000000-0000-0000-0000-000000000000")}?${query}`, {});
            expect(res.status, `${route.path}?${query} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
          }
        },
      );
    });
  }

  it.each([
    "/v1/messages/%ZZ",
    "/v1/messages/%00%ff",
    "/v1/webhooks/%E2%82",
    "/sandbox/v1/contacts/%ff",
    "/v1/mess%ffages/x",
  ])(
    "a malformed percent-encoding in the path (%s) is 404 not_found, like any malformed id (docs/spec-decisions.md)",
    async (path) => {
      const res = await t.api("GET", path);
      expectClientError(res, `GET ${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe("not_found");
    },
  );
});
