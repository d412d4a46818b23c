import { expect } from "vitest";
import { conformanceChecker, type RecordedAnswer } from "./openapi-conformance.js";
import { rawRequest, type RawAnswer } from "./raw-http.js";

/** One request with the Host and Origin headers chosen freely (null leaves a header out). */
export interface GuardedRequest {
  method?: string;
  path: string;
  host: string | null;
  origin?: string;
  key?: string;
  body?: unknown;
  /** Where to connect (default 127.0.0.1). */
  address?: string;
}

/**
 * Sends a request over a real socket with exactly the Host and Origin headers given (fetch
 * would set Host itself), and keeps every answer so a test file can check them all at the end:
 * no CORS header, and each answer in its host's OpenAPI document.
 */
export function guardedClient() {
  const answers: { port: number; recorded: RecordedAnswer; headers: Record<string, string> }[] = [];
  async function send(port: number, request: GuardedRequest): Promise<RawAnswer & { json: any }> {
    const method = request.method ?? "GET";
    const payload = request.body === undefined ? "" : JSON.stringify(request.body);
    const head = [`${method} ${request.path} HTTP/1.1`];
    if (request.host !== null) head.push(`Host: ${request.host}`);
    if (request.origin !== undefined) head.push(`Origin: ${request.origin}`);
    if (request.key) head.push(`Authorization: Bearer ${request.key}`);
    if (request.body !== undefined)
      head.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(payload)}`);
    head.push("Connection: close");
    const answer = await rawRequest(port, `${head.join("\r\n")}\r\n\r\n${payload}`, 10_000, {
      host: request.address,
    });
    let json: any;
    try {
      json = JSON.parse(answer.body);
    } catch {
      json = undefined;
    }
    answers.push({
      port,
      headers: answer.headers,
      recorded: {
        method,
        path: request.path.split("?")[0] as string,
        status: answer.status,
        contentType: answer.headers["content-type"] ?? null,
        body: json ?? answer.body,
      },
    });
    return Object.assign(answer, { json });
  }

  /** Every answer so far carried no Access-Control-* header and matched its host's document. */
  async function checkAll(documents: Record<number, Record<string, any>>): Promise<void> {
    const cors = answers.flatMap(({ recorded, headers }) =>
      Object.keys(headers)
        .filter((name) => name.startsWith("access-control-"))
        .map((name) => `${recorded.method} ${recorded.path} → ${recorded.status}: ${name}`),
    );
    expect(cors, "CORS headers").toEqual([]);
    const checkers = new Map(Object.entries(documents).map(([port, doc]) => [Number(port), conformanceChecker(doc)]));
    const violations = answers.flatMap(({ port, recorded }) => checkers.get(port)?.(recorded) ?? []);
    expect(violations, "answers outside the host's OpenAPI document").toEqual([]);
    expect(answers.length).toBeGreaterThan(0);
  }

  return { send, checkAll, answers };
}

/** Asserts a 403 of the guard: the code, the spec's error shape, the request id in body and header. */
export function expectRefused(answer: RawAnswer & { json: any }, code: "forbidden_host" | "forbidden_origin"): void {
  expect(answer.status, answer.body).toBe(403);
  expect(Object.keys(answer.json ?? {})).toEqual(["error", "message", "request_id"]);
  expect(answer.json.error).toBe(code);
  expect(answer.json.request_id).toMatch(/^req_[0-9a-f]{24}$/);
  expect(answer.headers["x-request-id"]).toBe(answer.json.request_id);
}
