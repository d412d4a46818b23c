import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Webhook handlers as users write them, for `webhooks check` to grade: a correct one (verifies the
 * raw body's signature within 300 s, dedupes on X-Msgctl-Event-Id, keeps the furthest state of a
 * message, ignores unknown fields, answers at once) and the same with one flaw each.
 */
export interface HandlerFlaws {
  /** How the signature is checked: fully (default), not at all, or with one mistake. */
  signature?:
    | "verified"
    | "unchecked"
    | "no-timestamp"
    | "past-only"
    | "reserialized-body"
    | "any-scheme"
    | "prefix-compare";
  /** A repeat of an event: skipped with a 2xx (default), refused with 409, or a 500 (a unique key broken). */
  duplicates?: "deduped" | "refused" | "crash";
  /** Events out of order: tolerated (default); a 500 for a read of a message not delivered yet; a 500 for a state going back. */
  order?: "tolerated" | "read-needs-delivered" | "no-going-back";
  /** A field it does not know: ignored (default) or a 400. */
  unknownFields?: "ignored" | "refused";
  /** Real ms spent on an accepted event before answering (work done before the answer). */
  slowMs?: number;
  /** Real ms the very first request waits before anything is done (a cold start). */
  coldStartMs?: number;
  /** The status of a refusal (default 400). */
  refusal?: number;
}

/** A handler on 127.0.0.1 and a free port. */
export interface TestHandler {
  url: string;
  /** The requests it got, as they arrived. */
  requests: { headers: IncomingHttpHeaders; body: string }[];
  /** The events it acted on (not the repeats it skipped), by X-Msgctl-Event-Id. */
  handled: string[];
  close(): Promise<void>;
}

const TOLERANCE_S = 300;
const KNOWN_FIELDS = new Set([
  "type",
  "conversation_id",
  "message_id",
  "from",
  "to",
  "text",
  "channel",
  "has_attachments",
  "created_at",
  "metadata",
  "status",
  "sent_at",
  "delivered_at",
  "read_at",
  "is_group",
  "error",
]);
const RANK: Record<string, number> = { "message.sent": 1, "message.delivered": 2, "message.read": 3 };

/** Whether the header signs `raw` with `secret`, checked as the flaw says. */
function signed(raw: Buffer, header: string | undefined, secret: string, flaw: HandlerFlaws["signature"]): boolean {
  if (flaw === "unchecked") return true;
  if (!header) return false;
  let t: number | undefined;
  let v1: string | undefined;
  for (const part of header.split(",")) {
    const [key, value = ""] = part.trim().split("=", 2);
    if (key === "t" && /^\d+$/.test(value)) t = Number(value);
    else if (key === "v1" || (flaw === "any-scheme" && /^v\d+$/.test(key ?? ""))) v1 = value;
  }
  if (t === undefined || v1 === undefined) return false;
  const skew = Date.now() / 1000 - t;
  if (flaw !== "no-timestamp" && flaw !== "past-only" && Math.abs(skew) > TOLERANCE_S) return false;
  if (flaw === "past-only" && skew > TOLERANCE_S) return false;
  // The common mistake: the JSON parsed and serialised again instead of the bytes received.
  const body = flaw === "reserialized-body" ? JSON.stringify(JSON.parse(raw.toString("utf8"))) : raw;
  const expected = createHmac("sha256", secret).update(`${t}.`).update(body).digest();
  if (flaw === "prefix-compare") {
    // Decodes hex leniently (Node stops at the first bad pair) and compares what it got.
    const given = Buffer.from(v1, "hex");
    return given.length > 0 && expected.subarray(0, given.length).equals(given);
  }
  if (!/^[0-9a-f]{64}$/.test(v1)) return false;
  return timingSafeEqual(Buffer.from(v1, "hex"), expected);
}

/** Starts a handler verifying with `secret`, with the flaws given (none: a correct handler). */
export async function startHandler(secret: string, flaws: HandlerFlaws = {}): Promise<TestHandler> {
  const seen = new Set<string>();
  const states = new Map<string, number>();
  const handler: TestHandler = { url: "", requests: [], handled: [], close: async () => {} };
  let arrived = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const first = ++arrived === 1;
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (first && flaws.coldStartMs !== undefined) {
        setTimeout(() => handle(req, res, Buffer.concat(chunks)), flaws.coldStartMs);
      } else handle(req, res, Buffer.concat(chunks));
    });
  });
  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    handler.requests.push({ headers: req.headers, body: raw.toString("utf8") });
    const answer = (status: number) => res.writeHead(status).end();
    if (req.url !== "/webhooks") return answer(404);
    const header = req.headers["x-service-signature"];
    if (!signed(raw, typeof header === "string" ? header : undefined, secret, flaws.signature)) {
      return answer(flaws.refusal ?? 400);
    }
    const event = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
    const id = String(req.headers["x-msgctl-event-id"]);
    if (seen.has(id)) {
      if (flaws.duplicates === "refused") return answer(409);
      if (flaws.duplicates === "crash") return answer(500);
      return answer(200);
    }
    if (flaws.unknownFields === "refused" && Object.keys(event).some((key) => !KNOWN_FIELDS.has(key))) {
      return answer(400);
    }
    const rank = RANK[String(event.type)];
    const messageId = String(event.message_id);
    if (rank !== undefined) {
      const before = states.get(messageId) ?? 0;
      if (flaws.order === "read-needs-delivered" && rank === 3 && before < 2) return answer(500);
      if (flaws.order === "no-going-back" && rank < before) return answer(500);
      states.set(messageId, Math.max(before, rank));
    }
    seen.add(id);
    handler.handled.push(id);
    if (flaws.slowMs) setTimeout(() => answer(200), flaws.slowMs);
    else answer(200);
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  handler.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  handler.close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return handler;
}
