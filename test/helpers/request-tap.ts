import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** A pass-through in front of a host that tells the test which requests a process has made. */
export interface RequestTap {
  /** The tap's URL: give it to the process instead of the host's. */
  url: string;
  /** Resolves once a request whose `METHOD /path?query` matches has been answered by the host. */
  seen(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a tap forwarding every request to `target` (bodies and answers streamed as they come,
 * server-sent events included). A test that must act while a CLI waits (move the clock, send
 * it a signal) awaits the wait's first request instead of guessing a moment of real time: a
 * guess was too short on a busy machine and too long on an idle one.
 */
export async function startRequestTap(target: string): Promise<RequestTap> {
  const upstream = new URL(target);
  const requests: string[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        // Counted once the host has answered: the state the process saw is the state before what comes next.
        requests.push(`${req.method} ${req.url}`);
        for (const waiter of [...waiters]) waiter();
      },
    );
    forwarded.on("error", () => res.destroy());
    res.on("close", () => forwarded.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: (pattern) =>
      new Promise((resolve) => {
        const waiter = () => {
          if (!requests.some((line) => pattern.test(line))) return;
          waiters.delete(waiter);
          resolve();
        };
        waiters.add(waiter);
        waiter();
      }),
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
