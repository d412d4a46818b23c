import { afterAll, beforeAll } from "vitest";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got, with its raw body. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * How the receiver answers: a status (and optional headers and body, "ok" by default), once
 * `after` resolves when given, or never ("hang").
 */
export type ReceiverReply =
  | { status: number; headers?: Record<string, string>; delayMs?: number; body?: string; after?: Promise<unknown> }
  | "hang";

/** A real HTTP receiver on 127.0.0.1 and a random port. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** The requests answered so far, in the order their answers went out (the app has handled them). */
  answered: ReceivedRequest[];
  /** Most requests handled at the same time so far. */
  maxConcurrent: number;
  /** Sets how the n-th request (1-based, counted from the start) is answered. */
  reply(fn: (request: ReceivedRequest, n: number) => ReceiverReply): void;
  close(): Promise<void>;
}

/** Starts a receiver that answers 204 until told otherwise; `into` becomes the receiver. */
export async function startReceiver(into: Partial<Receiver> = {}): Promise<Receiver> {
  let answer: (request: ReceivedRequest, n: number) => ReceiverReply = () => ({ status: 204 });
  let active = 0;
  const hanging = new Set<ServerResponse>();
  const receiver = Object.assign(into, {
    requests: [] as ReceivedRequest[],
    answered: [] as ReceivedRequest[],
    maxConcurrent: 0,
  }) as Receiver;
  const server = createServer((req, res) => {
    active++;
    receiver.maxConcurrent = Math.max(receiver.maxConcurrent, active);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      receiver.requests.push(request);
      const reply = answer(request, receiver.requests.length);
      if (reply === "hang") {
        hanging.add(res);
        res.on("close", () => active--);
        return;
      }
      const send = () => {
        active--;
        receiver.answered.push(request);
        res.writeHead(reply.status, reply.headers).end(reply.body ?? "ok");
      };
      if (reply.after) void reply.after.then(send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hook`,
    reply(fn: typeof answer) {
      answer = fn;
    },
    close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A receiver started before the tests of a describe block and closed after them. */
export function useReceiver(): Receiver {
  const receiver = {} as Receiver;
  beforeAll(async () => {
    await startReceiver(receiver);
  });
  afterAll(() => receiver.close());
  return receiver;
}
