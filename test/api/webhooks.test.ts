import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../src/domain/core/index.js";
import { parseFixture } from "../../src/domain/control/index.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";

const URL_A = "https://hooks.example.com/a";
const URL_B = "https://hooks.example.com/b";
// No DNS in tests: every name resolves to a public documentation-free address.
const resolveHost = async () => ["93.184.216.34"];

const OTHER_KEY = "sk_test_globex_000000000000000";
const fixture = parseFixture(
  {
    accounts: [
      { name: "Acme", api_key: KEY },
      { name: "Globex", api_key: OTHER_KEY },
    ],
  },
  "test fixture",
);

const RECORD_KEYS = ["created_at", "enabled", "events", "id", "updated_at", "url"];

// In-process and over a socket: the vitest projects run this suite both ways.
{
  const socket = process.env.MSGCTL_TEST_TRANSPORT === "socket";
  describe("webhook endpoints (spec 4.4)", () => {
    const t = useSandbox({ resolveHost, fixture });

    describe("POST /v1/webhooks", () => {
      it("creates an endpoint (201) with a generated whsec_ secret, every event, enabled", async () => {
        const res = await t.api("POST", "/v1/webhooks", { body: { url: URL_A } });
        expect(res.status).toBe(201);
        const hook = res.body.data;
        expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
        expect(hook.events).toEqual([...EVENT_TYPES]);
        expect(hook.enabled).toBe(true);
        expect(hook.url).toBe(URL_A);
        expect(hook.created_at).toBe(hook.updated_at);
        expect(Object.keys(hook).sort()).toEqual([...RECORD_KEYS, "other_webhooks", "secret"].sort());
        await t.api("DELETE", `/v1/webhooks/${hook.id}`);
      });

      it("takes a custom secret (16-200 characters) and an event list", async () => {
        const secret = "my-own-secret-of-20c";
        const res = await t.api("POST", "/v1/webhooks", {
          body: { url: URL_A, events: ["message.sent", "message.read", "message.sent"], secret },
        });
        expect(res.status).toBe(201);
        expect(res.body.data.secret).toBe(secret);
        expect(res.body.data.events).toEqual(["message.sent", "message.read"]);
        await t.api("DELETE", `/v1/webhooks/${res.body.data.id}`);
      });

      it("lists the account's other endpoints, newest first, without secrets", async () => {
        const first = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data;
        const second = (await t.api("POST", "/v1/webhooks", { body: { url: URL_B } })).body.data;
        expect(first.other_webhooks).toEqual([]);
        expect(second.other_webhooks).toHaveLength(1);
        expect(second.other_webhooks[0].id).toBe(first.id);
        expect(second.other_webhooks[0]).not.toHaveProperty("secret");
        const third = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data;
        expect(third.other_webhooks.map((w: { id: string }) => w.id)).toEqual([second.id, first.id]);
        for (const hook of [first, second, third]) await t.api("DELETE", `/v1/webhooks/${hook.id}`);
      });

      it.each([
        [{}, "url"],
        [{ url: 42 }, "url"],
        [{ url: URL_A, events: ["message.sent", "message.exploded"] }, 'events.1: unknown event "message.exploded"'],
        [{ url: URL_A, events: [] }, "events"],
        [{ url: URL_A, events: "message.sent" }, "events"],
        [{ url: URL_A, secret: "too-short" }, "secret: must be 16-200 characters"],
        [{ url: URL_A, secret: "x".repeat(201) }, "secret: must be 16-200 characters"],
        [{ url: URL_A, enabled: false }, "enabled"],
        [{ url: null }, "url: "],
        [{ url: URL_A, events: null }, "events: "],
        [{ url: URL_A, secret: null }, "secret: "],
      ])("rejects %j with 400 invalid_request naming the field", async (body, field) => {
        const res = await t.api("POST", "/v1/webhooks", { body });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe("invalid_request");
        expect(res.body.message).toContain(field);
        expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
        expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
      });

      it("rejects a missing body with 400 invalid_request", async () => {
        const res = await t.api("POST", "/v1/webhooks");
        expect(res.status).toBe(400);
        expect(res.body.error).toBe("invalid_request");
      });
    });

    describe("Idempotency-Key", () => {
      it("returns the original endpoint, secret included, with 200, and creates nothing", async () => {
        const key = `key-${socket}`;
        const first = await t.api("POST", "/v1/webhooks", {
          body: { url: URL_A },
          headers: { "idempotency-key": key },
        });
        const again = await t.api("POST", "/v1/webhooks", {
          body: { url: URL_B },
          headers: { "idempotency-key": key },
        });
        expect(first.status).toBe(201);
        expect(again.status).toBe(200);
        expect(again.body.data).toEqual(first.body.data);
        expect((await t.api("GET", "/v1/webhooks")).body.data).toHaveLength(1);
        // The key is scoped per account and per endpoint: another key creates another endpoint.
        const other = await t.api("POST", "/v1/webhooks", {
          body: { url: URL_B },
          headers: { "idempotency-key": `${key}-2` },
        });
        expect(other.status).toBe(201);
        expect(other.body.data.id).not.toBe(first.body.data.id);
        for (const res of [first, other]) await t.api("DELETE", `/v1/webhooks/${res.body.data.id}`);
      });

      it("answers 409 invalid_state when the endpoint it created was deleted", async () => {
        const key = `gone-${socket}`;
        const first = await t.api("POST", "/v1/webhooks", {
          body: { url: URL_A },
          headers: { "idempotency-key": key },
        });
        await t.api("DELETE", `/v1/webhooks/${first.body.data.id}`);
        const again = await t.api("POST", "/v1/webhooks", {
          body: { url: URL_A },
          headers: { "idempotency-key": key },
        });
        expect(again.status).toBe(409);
        expect(again.body.error).toBe("invalid_state");
      });
    });

    describe("reads never show a secret", () => {
      it("GET list and GET one return the record without its secret", async () => {
        const created = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data;
        const list = await t.api("GET", "/v1/webhooks");
        expect(list.status).toBe(200);
        expect(list.body.has_more).toBe(false);
        expect(list.body.data).toHaveLength(1);
        expect(Object.keys(list.body.data[0]).sort()).toEqual(RECORD_KEYS);
        const one = await t.api("GET", `/v1/webhooks/${created.id}`);
        expect(one.status).toBe(200);
        expect(Object.keys(one.body.data).sort()).toEqual(RECORD_KEYS);
        expect(JSON.stringify([list.body, one.body])).not.toContain(created.secret);
        await t.api("DELETE", `/v1/webhooks/${created.id}`);
      });

      it("pages newest first with limit and a created_at cursor", async () => {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++)
          ids.push((await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data.id);
        const page1 = await t.api("GET", "/v1/webhooks?limit=2");
        expect(page1.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
        expect(page1.body.has_more).toBe(true);
        const page2 = await t.api(
          "GET",
          `/v1/webhooks?limit=2&before=${encodeURIComponent(page1.body.data[1].created_at)}`,
        );
        expect(page2.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
        expect(page2.body.has_more).toBe(false);
        expect((await t.api("GET", "/v1/webhooks?limit=0")).status).toBe(400);
        for (const id of ids) await t.api("DELETE", `/v1/webhooks/${id}`);
      });
    });

    describe("PATCH /v1/webhooks/:id", () => {
      it("changes only the fields sent, replaces events, never echoes the secret", async () => {
        const created = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A, events: ["message.sent"] } })).body
          .data;
        await t.advance(1_000);
        const res = await t.api("PATCH", `/v1/webhooks/${created.id}`, {
          body: { url: URL_B, events: ["message.read"], secret: "a-brand-new-secret-123", enabled: false },
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id: created.id, url: URL_B, events: ["message.read"], enabled: false });
        expect(Object.keys(res.body.data).sort()).toEqual(RECORD_KEYS);
        // updated_at is the clock's time of the change (docs/webhooks.md).
        expect(Date.parse(res.body.data.updated_at)).toBe(t.sandbox.ctx.clock.now());
        expect(res.body.data.updated_at > created.updated_at).toBe(true);
        expect(res.body.data.created_at).toBe(created.created_at);
        const unchanged = await t.api("PATCH", `/v1/webhooks/${created.id}`, { body: {} });
        expect(unchanged.body.data).toEqual(res.body.data);
        await t.api("DELETE", `/v1/webhooks/${created.id}`);
      });

      it.each([
        [{ enabled: "no" }, "enabled"],
        [{ secret: "short" }, "secret"],
        [{ events: ["nope"] }, 'unknown event "nope"'],
        [{ id: "x" }, "id"],
        // null is neither "leave it" nor "clear it" (docs/spec-decisions.md, Webhooks).
        [{ events: null }, "events: "],
        [{ secret: null }, "secret: "],
        [{ url: null }, "url: "],
        [{ enabled: null }, "enabled: "],
      ])("rejects %j with 400 and changes nothing", async (body, field) => {
        const created = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data;
        const res = await t.api("PATCH", `/v1/webhooks/${created.id}`, { body });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(field);
        const { secret: _secret, other_webhooks: _others, ...record } = created;
        expect((await t.api("GET", `/v1/webhooks/${created.id}`)).body.data).toEqual(record);
        await t.api("DELETE", `/v1/webhooks/${created.id}`);
      });
    });

    describe("rotate-secret and DELETE", () => {
      it("rotate-secret answers 200 with the record and a new generated secret", async () => {
        const created = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data;
        const res = await t.api("POST", `/v1/webhooks/${created.id}/rotate-secret`);
        expect(res.status).toBe(200);
        expect(res.body.data.secret).toMatch(/^whsec_/);
        expect(res.body.data.secret).not.toBe(created.secret);
        expect(Object.keys(res.body.data).sort()).toEqual([...RECORD_KEYS, "secret"].sort());
        await t.api("DELETE", `/v1/webhooks/${created.id}`);
      });

      it("DELETE answers 200 { id, deleted: true }; the endpoint is gone afterwards", async () => {
        const created = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A } })).body.data;
        const res = await t.api("DELETE", `/v1/webhooks/${created.id}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ id: created.id, deleted: true });
        expect((await t.api("GET", `/v1/webhooks/${created.id}`)).status).toBe(404);
        expect((await t.api("DELETE", `/v1/webhooks/${created.id}`)).status).toBe(404);
        expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
      });
    });

    describe("unknown, malformed or another account's id", () => {
      it.each([
        ["GET", ""],
        ["PATCH", ""],
        ["DELETE", ""],
        ["POST", "/rotate-secret"],
      ])("%s …%s answers 404 not_found", async (method, suffix) => {
        const theirs = (await t.api("POST", "/v1/webhooks", { body: { url: URL_A }, key: OTHER_KEY })).body.data;
        for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", theirs.id]) {
          const res = await t.api(method, `/v1/webhooks/${id}${suffix}`, {
            body: method === "PATCH" ? { enabled: false } : undefined,
          });
          expect(res.status).toBe(404);
          expect(res.body.error).toBe("not_found");
        }
        // Theirs is untouched, and never among ours.
        expect((await t.api("GET", `/v1/webhooks/${theirs.id}`, { key: OTHER_KEY })).body.data.enabled).toBe(true);
        expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
        await t.api("DELETE", `/v1/webhooks/${theirs.id}`, { key: OTHER_KEY });
      });
    });
  });
}
