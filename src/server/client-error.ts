import { STATUS_CODES, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorCode } from "../lib/app-error.js";
import { clip } from "../lib/bounded-input.js";
import { endAndDrain } from "./drain.js";
import { newRequestId } from "./host-app.js";

/** The answer to a request that never reached the app. */
interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
}

type ParseError = Error & { code?: string; reason?: string };

/** What node's HTTP parser (llhttp) refused, in the spec's terms. */
function refusalOf(error: ParseError): Refusal {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        code: "request_too_large",
        message: "The request line and headers are larger than the 16 KiB limit (a URL that long is refused too)",
      };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { status: 413, code: "payload_too_large", message: "The chunk extensions of the body are too large" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, code: "request_timeout", message: "The request did not arrive in time" };
    default:
      return {
        status: 400,
        code: "invalid_request",
        message: `Malformed HTTP request (${clip(error.reason ?? error.message, 100)})`,
      };
  }
}

/** An HTTP/1.1 error answer in the spec's shape, written straight to a socket. */
function errorAnswer(refusal: Refusal, extraHeaders: string[] = []): string {
  const requestId = newRequestId();
  const body = JSON.stringify({ error: refusal.code, message: refusal.message, request_id: requestId });
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}`,
    "content-type: application/json; charset=utf-8",
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    ...extraHeaders,
    "connection: close",
    "",
    body,
  ].join("\r\n");
}

const answered = new WeakSet<Duplex>();

/** Answers on the socket, then reads what the client still sends before closing (drain.ts). */
function answerAndDrain(socket: Duplex, answer: string): void {
  answered.add(socket);
  endAndDrain(socket, answer);
}

/**
 * Gives the requests node refuses before any app sees them an answer in the spec's error shape
 * (`{ error, message, request_id }` and `X-Request-Id`) instead of node's bare status lines:
 * malformed HTTP (400), a request line and headers over 16 KiB (431 `request_too_large`), a
 * request that timed out (408), and CONNECT (405). A socket that can no longer carry an answer
 * (reset by the client, or a response already under way) is closed without one.
 */
export function answerProtocolErrors(server: Server): void {
  server.on("clientError", (error: ParseError, socket: Duplex) => {
    // The parser reports every later chunk of a refused request again: answer once.
    if (answered.has(socket)) return;
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerAndDrain(socket, errorAnswer(refusalOf(error)));
  });
  // Node hands CONNECT to this event only (no listener: the socket is dropped); nothing here proxies.
  server.on("connect", (request: IncomingMessage, socket: Duplex) => {
    const refusal: Refusal = {
      status: 405,
      code: "method_not_allowed",
      message: `CONNECT is not allowed on ${clip(request.url ?? "", 100)}`,
    };
    answerAndDrain(socket, errorAnswer(refusal));
  });
}
