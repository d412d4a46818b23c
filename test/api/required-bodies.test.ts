import { describe, expect, it } from "vitest";
import { messagingRoutes, otpRoutes } from "../../src/server/hosts.js";
import { useSandbox } from "../helpers/sandbox.js";

/**
 * A route that needs a JSON object body answers its absence at the server's edge, before the
 * domain looks anything up: 400 invalid_request "body: required, e.g. …" with an example body, even
 * when the path names nothing; a JSON value that is not an object is "body: must be an object".
 */
const REQUIRED: Record<string, string> = {
  "POST /v1/messages": 'body: required, e.g. { "to": "+14155550191", "from_handle": "+14155550101", "text": "hi" }',
  "POST /v1/messages/:id/react": 'body: required, e.g. { "reaction": "love" }',
  "POST /v1/messages/:id/edit": 'body: required, e.g. { "text": "new text" }',
  "POST /v1/attachments/presign": 'body: required, e.g. { "filename": "photo.png", "content_type": "image/png" }',
  "POST /v1/chats":
    'body: required, e.g. { "from_handle": "+14155550101", "addresses": ["+14155550191", "+14155550150"], "message": "hi" }',
  "PATCH /v1/chats/:id": 'body: required, e.g. { "title": "Weekend plans" }',
  "POST /v1/chats/:id/participants": 'body: required, e.g. { "handle": "+14155550150" }',
  "POST /v1/chats/:id/typing": 'body: required, e.g. { "typing": true }',
  "POST /v1/webhooks": 'body: required, e.g. { "url": "https://example.com/webhooks" }',
  "PATCH /v1/webhooks/:id": 'body: required, e.g. { "enabled": false }',
  "POST /sandbox/v1/clock/advance": 'body: required, e.g. { "duration": "1h" } or { "ms": 3600000 }',
  "POST /sandbox/v1/numbers/:handle/faults": 'body: required, e.g. { "fault": "offline" }',
  "POST /v1/challenges": 'body: required, e.g. { "phone": "+14155550123" }',
  "POST /sandbox/v1/otp/texts": 'body: required, e.g. { "from": "+14155550123", "text": "123456" }',
  "POST /sandbox/v1/otp/fault":
    'body: required, e.g. { "fault": "unavailable" } or { "fault": "unavailable", "off": true }',
  "POST /sandbox/v1/simulate/inbound":
    'body: required, e.g. { "from": "+14155550191", "to": "+14155550101", "text": "hi" }',
  "POST /sandbox/v1/simulate/reaction":
    'body: required, e.g. { "message_id": "…", "from": "+14155550191", "reaction": "love" }',
  "POST /sandbox/v1/simulate/typing": 'body: required, e.g. { "from": "+14155550191", "to": "+14155550101" }',
  "POST /sandbox/v1/simulate/edit": 'body: required, e.g. { "message_id": "…", "text": "new text" }',
  "POST /sandbox/v1/simulate/rename": 'body: required, e.g. { "conversation_id": "…", "title": "Weekend plans" }',
  "PUT /sandbox/v1/chaos": 'body: required, e.g. { "seed": 42, "profile": "mild" }',
  "POST /sandbox/v1/snapshots": 'body: required, e.g. { "name": "checkout-ready" }',
  "POST /sandbox/v1/webhooks/check":
    'body: required, e.g. { "url": "http://127.0.0.1:3000/webhooks", "secret": "whsec_…" }',
  "POST /sandbox/v1/simulate/participants":
    'body: required, e.g. { "conversation_id": "…", "action": "add", "handle": "+14155550150", "from": "+14155550191" }',
};

const OTP_ONLY = new Set(otpRoutes.filter((route) => !messagingRoutes.includes(route)));
const allRoutes = [...new Set([...messagingRoutes, ...otpRoutes])];
const declaring = allRoutes.filter((route) => route.requiresBody);

describe("a required JSON body is checked at the server's edge", () => {
  const t = useSandbox();
  const call = (route: (typeof declaring)[number], body?: string) => {
    // An id that names nothing: the body is answered before any lookup.
    const path = route.path.replace(/:\w+/g, "00000000-0000-0000-0000-000000000000");
    return OTP_ONLY.has(route) ? t.otp(route.method, path, { body }) : t.api(route.method, path, { body });
  };

  it("the routes that require one are these, each documented with a required body", () => {
    expect(declaring.map((route) => `${route.method} ${route.path}`).sort()).toEqual(Object.keys(REQUIRED).sort());
    for (const route of declaring) {
      expect(route.doc.body, route.path).toBeDefined();
      expect(route.doc.bodyOptional, route.path).toBeFalsy();
    }
  });

  it("every route documented with a JSON body that is not optional declares it", () => {
    const documented = allRoutes.filter((route) => route.doc.body && !route.doc.bodyOptional);
    expect(documented.filter((route) => !route.requiresBody).map((route) => `${route.method} ${route.path}`)).toEqual(
      [],
    );
  });

  it.each(Object.entries(REQUIRED))(
    "%s without a body: 400 saying it is required, with an example",
    async (key, said) => {
      const route = declaring.find((r) => `${r.method} ${r.path}` === key);
      const res = await call(route!);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_request", message: said, request_id: expect.any(String) });
    },
  );

  it.each([
    ["null", "body: must be an object, not null"],
    ["[]", "body: must be an object, not an array"],
    ['"hi"', "body: must be an object, not a string"],
    ["5", "body: must be an object, not a number"],
  ])("a JSON %s where an object is required: 400 %j", async (body, said) => {
    for (const route of declaring) {
      const res = await call(route, body);
      expect(res.status, route.path).toBe(400);
      expect(res.body.message, route.path).toBe(said);
    }
  });
});
