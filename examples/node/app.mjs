// A small Node app that texts customers through the messaging API and takes its webhooks, with
// nothing but node: modules. Configured by MSGCTL_BASE_URL, MSGCTL_API_KEY, WEBHOOK_SECRET and
// FROM_NUMBER (see createApp's options).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

/** True when `header` (X-service-Signature: t=…,v1=…) signs the raw body with `secret`, within 5 minutes. */
export function verifySignature(rawBody, header, secret, toleranceSeconds = 300) {
  if (!header) return false;
  const parts = header.split(",").map((part) => part.trim().split("="));
  const t = Number(parts.find(([key]) => key === "t")?.[1]);
  const signatures = parts.filter(([key, value]) => key === "v1" && /^[0-9a-f]{64}$/.test(value)).map(([, v]) => v);
  if (!Number.isInteger(t) || signatures.length === 0 || Math.abs(Date.now() / 1000 - t) > toleranceSeconds)
    return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest("hex"));
  return signatures.some((signature) => timingSafeEqual(Buffer.from(signature), expected));
}

const readBody = (request) =>
  new Promise((resolve) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
  });

/** The app: an HTTP server (not listening yet) and what it has learnt from webhooks. */
export function createApp(options = {}) {
  const settings = {
    baseUrl: process.env.MSGCTL_BASE_URL ?? "http://127.0.0.1:4010",
    apiKey: process.env.MSGCTL_API_KEY ?? "",
    secret: process.env.WEBHOOK_SECRET ?? "",
    fromNumber: process.env.FROM_NUMBER ?? "+14155550101",
    ...options,
  };
  const state = { lastInbound: null, statuses: new Map(), seenEventIds: new Set() };
  const json = (response, status, body) =>
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const url = new URL(request.url, "http://app");
    if (request.method === "POST" && url.pathname === "/hooks") {
      if (!verifySignature(body, request.headers["x-service-signature"], settings.secret))
        return response.writeHead(400).end("bad signature");
      const eventId = request.headers["x-msgctl-event-id"];
      if (state.seenEventIds.has(eventId)) return response.writeHead(204).end(); // at least once
      state.seenEventIds.add(eventId);
      const event = JSON.parse(body);
      if (event.type === "message.received") state.lastInbound = { from: event.from, text: event.text };
      else if (event.type.startsWith("message.")) state.statuses.set(event.message_id, event.status);
      return response.writeHead(204).end();
    }
    if (request.method === "GET" && url.pathname === "/api/last-inbound")
      return state.lastInbound ? json(response, 200, state.lastInbound) : json(response, 404, { error: "nothing yet" });
    if (request.method === "POST" && url.pathname === "/api/notify") {
      const { to, text } = JSON.parse(body);
      const answer = await fetch(`${settings.baseUrl}/v1/messages`, {
        method: "POST",
        headers: { authorization: `Bearer ${settings.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ to, from_handle: settings.fromNumber, text }),
      });
      const sent = await answer.json();
      if (!answer.ok) return json(response, answer.status, sent);
      return json(response, 202, { id: sent.data.id, status: sent.data.status });
    }
    const status = /^\/api\/messages\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && status)
      return json(response, 200, { id: status[1], status: state.statuses.get(status[1]) ?? null });
    response.writeHead(404).end();
  });
  return { server, state };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { server } = createApp();
  server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () =>
    console.log(`listening on ${server.address().port}`),
  );
}
