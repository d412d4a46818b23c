import { connect } from "node:net";

/** What came back on a raw HTTP/1.1 connection. */
export interface RawAnswer {
  /** 0 when no status line arrived. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection was reset (ECONNRESET/EPIPE) rather than closed. */
  reset: boolean;
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

/** Parses one HTTP/1.1 answer (the first) out of what a connection received. */
export function parseAnswer(raw: string, reset = false): RawAnswer {
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
  return { status, headers, body, reset, raw };
}

/**
 * Writes `request` (any bytes, well-formed or not) to a fresh connection and resolves with the
 * answer once the server closes it (send `Connection: close`) or `timeoutMs` passes.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000, host = "127.0.0.1"): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    let reset = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks).toString("latin1"), reset));
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") reset = true;
      finish();
    });
    socket.on("close", finish);
    socket.write(request, () => socket.end());
  });
}
