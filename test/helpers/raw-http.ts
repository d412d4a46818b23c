import { connect } from "node:net";

/** What came back on a raw HTTP/1.1 connection. */
export interface RawAnswer {
  /** 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection was reset (ECONNRESET/EPIPE) rather than closed. */
  reset: boolean;
  /** The socket error, if one ended the connection. */
  error?: string;
  /** Raw bytes received. */
  raw: string;
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    if (eol < 0) return out;
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

/** Interim answers (`100 Continue`) come before the answer proper. */
const INTERIM = /^HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/;

/** Parses one HTTP/1.1 answer (the first final one) out of what a connection received. */
function parseAnswer(received: string, reset = false, error?: string): RawAnswer {
  let raw = received;
  for (let interim = INTERIM.exec(raw); interim; interim = INTERIM.exec(raw)) raw = raw.slice(interim[0].length);
  const end = raw.indexOf("\r\n\r\n");
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = end < 0 ? "" : raw.slice(end + 4);
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") body = dechunk(body);
  else if (headers["content-length"] !== undefined) body = body.slice(0, Number(headers["content-length"]));
  return { status, headers, body, reset, raw: received, ...(error ? { error } : {}) };
}

/** True once `raw` holds a whole answer, or the head of an event stream (which never ends). */
function complete(received: string): boolean {
  const raw = received.replace(INTERIM, "");
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return false;
  const head = raw.slice(0, end).toLowerCase();
  if (head.includes("content-type: text/event-stream")) return true;
  const length = /\r\ncontent-length: *(\d+)/.exec(head)?.[1];
  if (length !== undefined) return Buffer.byteLength(raw.slice(end + 4), "latin1") >= Number(length);
  return head.includes("transfer-encoding: chunked") && raw.endsWith("0\r\n\r\n");
}

/**
 * Writes `request` (any bytes, well-formed or not) to a fresh connection and resolves with the
 * answer once it is complete, the server closes the connection, or `timeoutMs` passes.
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  timeoutMs = 10_000,
  options: { host?: string; readAfterWriting?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, options.host ?? "127.0.0.1");
    // Like curl: nothing is read until the whole request is written.
    if (options.readAfterWriting) socket.pause();
    const chunks: Buffer[] = [];
    let reset = false;
    let failure: string | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString("latin1"), reset, failure));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (complete(Buffer.concat(chunks).toString("latin1"))) finish();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      failure = error.code ?? error.message;
      if (error.code === "ECONNRESET" || error.code === "EPIPE") reset = true;
      finish();
    });
    socket.on("close", finish);
    // No half-close after writing: node's HTTP server takes a client's FIN as "gone" and drops a
    // request still being handled (httpAllowHalfOpen is off), as curl and fetch never do either.
    socket.write(request, () => socket.resume());
  });
}
