import { describe, expect, it } from "vitest";
import { messagingRoutes, otpRoutes } from "../../src/server/hosts.js";
import { useSandbox } from "../helpers/sandbox.js";

/**
 * A route that takes an Idempotency-Key (a send, a group's creation, a webhook's) has the key's
 * form checked at the server's edge, before its body or the domain: present, it is 1 to 255
 * characters, else 400 invalid_request in the spec's error shape, and nothing is made.
 */

const MAIN = "+14155550101";

/** Each route that takes a key, with a body it would accept and the list that would grow. */
const TAKING_A_KEY = {
  "POST /v1/messages": {
    body: { to: "+14155550191", from_handle: MAIN, text: "hi" },
    list: "/v1/messages",
  },
  "POST /v1/chats": {
    body: { from_handle: MAIN, addresses: ["+14155550191", "+14155550150"], message: "hi" },
    list: "/v1/chats",
  },
  "POST /v1/webhooks": { body: { url: "http://127.0.0.1:9/hooks" }, list: "/v1/webhooks" },
} as const;

const REFUSED = {
  error: "invalid_request",
  message: "Idempotency-Key: must be 1 to 255 characters",
  request_id: expect.stringMatching(/\S/),
};

describe("the Idempotency-Key's form is checked at the server's edge", () => {
  const t = useSandbox();
  const routes = Object.entries(TAKING_A_KEY).map(([key, route]) => {
    const [method = "", path = ""] = key.split(" ");
    return { name: key, method, path, ...route };
  });
  const count = async (list: string) => (await t.api("GET", `${list}?limit=100`)).body.data.length;

  it("the routes that take one are these, each documenting the header", () => {
    const documented = [...new Set([...messagingRoutes, ...otpRoutes])].filter(
      (route) => route.doc.headers?.["Idempotency-Key"] !== undefined,
    );
    expect(documented.map((route) => `${route.method} ${route.path}`).sort()).toEqual(Object.keys(TAKING_A_KEY).sort());
  });

  it.each(routes)("$name: an empty key is 400 and makes nothing", async ({ method, path, body, list }) => {
    const before = await count(list);
    const res = await t.api(method, path, { body, headers: { "idempotency-key": "" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(REFUSED);
    expect(await count(list)).toBe(before);
  });

  it.each(routes)("$name: a key of 256 characters is 400 and makes nothing", async ({ method, path, body, list }) => {
    const before = await count(list);
    const res = await t.api(method, path, { body, headers: { "idempotency-key": "k".repeat(256) } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(REFUSED);
    expect(await count(list)).toBe(before);
  });

  it.each(routes)("$name: the key is answered before a missing body", async ({ method, path }) => {
    const res = await t.api(method, path, { headers: { "idempotency-key": "" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(REFUSED);
  });

  it.each(routes)("$name: a key of 255 characters is taken, and a repeat returns the first answer", async (route) => {
    const key = `${route.path.replace(/\W/g, "")}`.padEnd(255, "k");
    const first = await t.api(route.method, route.path, { body: route.body, headers: { "idempotency-key": key } });
    expect(first.status).toBeLessThan(300);
    const again = await t.api(route.method, route.path, { body: route.body, headers: { "idempotency-key": key } });
    expect(again.status).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
  });
});
