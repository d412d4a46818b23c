import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { messagingRoutes, otpRoutes } from "../../src/server/hosts.js";
import type { Route } from "../../src/server/route.js";
import { rawRequest, type RawAnswer } from "../helpers/raw-http.js";
import { Prng } from "./prng.js";
import { KEYS, type Pools } from "./pools.js";
import { buildRequest, type FuzzRequest } from "./requests.js";

const BIN = resolve(import.meta.dirname, "../../bin/msgctl");

/**
 * Node flags for a server whose resident memory means something: with a small heap V8 collects
 * instead of growing, so RSS growth shows what is retained rather than when the GC last ran, and a
 * leak exhausts the heap and ends the process. (With V8's default sizing RSS settles 50-60 MB
 * above the start within the first thousand requests, while the live heap grows about 5 MB.)
 */
export const SMALL_HEAP = ["--max-old-space-size=64", "--max-semi-space-size=1"];

/** What went wrong with one request, with what is needed to find it again. */
export interface Finding {
  index: number;
  request: string;
  problem: string;
}

/** The figures of one fuzz run. */
export interface FuzzReport {
  seed: number;
  requests: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Connections reset before any answer could be written, by request kind. */
  resets: Record<string, number>;
  failures: Finding[];
  healthChecks: number;
  alive: boolean;
  rssAfterSetupMb: number;
  rssEndMb: number;
  rssGrowthMb: number;
  /** Resident memory every 250 requests (MB), to tell a plateau from a leak. */
  rssTrace: number[];
  seconds: number;
}

/** A `msgctl serve` under test: its ports and its resident memory. */
interface Server {
  child: ChildProcess;
  ports: { messaging: number; otp: number };
  rssMb(): number;
  stop(): Promise<void>;
}

async function startServer(nodeFlags: string[]): Promise<Server> {
  const args = [
    "serve",
    "--json",
    "--quiet",
    "--port",
    "0",
    "--otp-port",
    "0",
    "--db",
    ":memory:",
    "--clock",
    "manual",
    "--no-state-file",
  ];
  const child = spawn(process.execPath, [...nodeFlags, BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = await new Promise<{ base_url: string; otp_url: string }>((done, fail) => {
    createInterface({ input: child.stdout! }).once("line", (line) => done(JSON.parse(line)));
    child.once("exit", (code) => fail(new Error(`serve exited (${code}) before ready`)));
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  return {
    child,
    ports: { messaging: Number(new URL(ready.base_url).port), otp: Number(new URL(ready.otp_url).port) },
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A well-formed JSON call, for setting up and reading back state. */
async function call(server: Server, method: string, path: string, body?: unknown): Promise<any> {
  const payload = body === undefined ? "" : JSON.stringify(body);
  const head = [
    `${method} ${path} HTTP/1.1`,
    "Host: localhost",
    `Authorization: Bearer ${KEYS.messaging}`,
    "Connection: close",
  ];
  if (body !== undefined) head.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(payload)}`);
  const answer = await rawRequest(server.ports.messaging, `${head.join("\r\n")}\r\n\r\n${payload}`);
  return answer.body ? JSON.parse(answer.body) : undefined;
}

/** Real ids and handles: messages at every stage, an inbound one, a webhook and its deliveries. */
async function fillPools(server: Server): Promise<Pools> {
  const ids = (list: { data?: { id: string }[] } | undefined) => (list?.data ?? []).map((item) => item.id);
  const messageIds: string[] = [];
  for (const to of ["+14155550191", "+14155550172", "+14155550192", "a@b.co"]) {
    const sent = await call(server, "POST", "/v1/messages", { to, from_handle: "+14155550101", text: "fuzz" });
    if (sent?.data?.id) messageIds.push(sent.data.id);
  }
  const inbound = await call(server, "POST", "/sandbox/v1/simulate/inbound", {
    from: "+14155550191",
    to: "+14155550101",
    text: "hi",
  });
  await call(server, "POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook" });
  await call(server, "POST", "/sandbox/v1/clock/advance", { duration: "3s" });
  return {
    messageIds,
    inboundIds: inbound?.data?.id ? [inbound.data.id] : [],
    conversationIds: ids(await call(server, "GET", "/v1/chats")),
    webhookIds: ids(await call(server, "GET", "/v1/webhooks")),
    deliveryIds: ids(await call(server, "GET", "/sandbox/v1/deliveries?limit=20")),
    numbers: ((await call(server, "GET", "/v1/numbers"))?.data ?? []).map((n: { handle: string }) => n.handle),
    contacts: ((await call(server, "GET", "/sandbox/v1/contacts"))?.data ?? [])
      .map((c: { handle: string }) => c.handle)
      .slice(0, 5),
  };
}

/** What is wrong with an answer, if anything (spec section 7: the error shape, X-Request-Id, no 5xx). */
function judge(request: FuzzRequest, route: Route, answer: RawAnswer): string | undefined {
  if (answer.status === 0) return answer.reset ? undefined : `no answer${answer.error ? ` (${answer.error})` : ""}`;
  if (answer.status >= 500) return `${answer.status}: ${answer.body.slice(0, 200)}`;
  const requestId = answer.headers["x-request-id"];
  if (!requestId || !/^req_[0-9a-f]{24}$/.test(requestId)) return `${answer.status} without an X-Request-Id header`;
  if (request.method === "HEAD") return undefined; // no body to judge
  // A route documented to answer without the envelope (a delivery's raw body, a document) is
  // judged by its header alone when it succeeds; its errors still take the error shape.
  if (answer.status < 400 && Object.values(route.doc.responses).some((r) => r?.raw)) return undefined;
  const type = answer.headers["content-type"] ?? "";
  if (type.startsWith("text/event-stream") || type.startsWith("text/html"))
    return answer.status < 400 ? undefined : `${answer.status} as ${type}`;
  let body: any;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `${answer.status} with a body that is not JSON: ${answer.body.slice(0, 100)}`;
  }
  if (body?.request_id !== requestId)
    return `${answer.status}: request_id ${body?.request_id} is not the X-Request-Id ${requestId}`;
  if (answer.status >= 400) {
    const keys = Object.keys(body).sort().join(",");
    if (keys !== "error,message,request_id" || typeof body.error !== "string" || typeof body.message !== "string") {
      return `${answer.status} outside the error shape: ${answer.body.slice(0, 200)}`;
    }
  }
  return undefined;
}

const describeRequest = (r: FuzzRequest) =>
  `${r.host} ${r.route} as ${r.method}, ${r.kind}, ${r.bytes.length} bytes: ${JSON.stringify(r.bytes.subarray(0, 120).toString("latin1"))}`;

/**
 * Runs `requests` seeded requests against a fresh `msgctl serve` (built CLI, manual clock, in
 * memory): every route of both hosts from the route tables, so routes added later are fuzzed
 * too. Checks every answer, `/healthz` every 50 requests, and resident memory at both ends.
 */
export async function runFuzz(options: {
  seed: number;
  requests: number;
  /** Node flags for the server, e.g. a heap cap so that RSS shows retention rather than GC timing. */
  nodeFlags?: string[];
  onProgress?: (done: number) => void;
}): Promise<FuzzReport> {
  const started = Date.now();
  const rng = new Prng(options.seed);
  const server = await startServer(options.nodeFlags ?? []);
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    statuses: {},
    resets: {},
    failures: [],
    healthChecks: 0,
    alive: true,
    rssAfterSetupMb: 0,
    rssEndMb: 0,
    rssGrowthMb: 0,
    rssTrace: [],
    seconds: 0,
  };
  const routes = [
    ...messagingRoutes.map((route) => ["messaging", route] as const),
    ...otpRoutes.map((route) => ["otp", route] as const),
  ];
  const healthy = async () => {
    report.healthChecks++;
    const answer = await rawRequest(
      server.ports.messaging,
      "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      5_000,
    );
    return answer.status === 200;
  };
  try {
    let pools = await fillPools(server);
    report.rssAfterSetupMb = server.rssMb();
    for (let index = 0; index < options.requests; index++) {
      const [host, route] = rng.pick(routes);
      const request = buildRequest(rng, host, route, pools);
      const answer = await rawRequest(server.ports[host], request.bytes, 15_000);
      report.requests++;
      if (answer.status === 0 && answer.reset) report.resets[request.kind] = (report.resets[request.kind] ?? 0) + 1;
      else report.statuses[answer.status] = (report.statuses[answer.status] ?? 0) + 1;
      const problem = judge(request, route, answer);
      if (problem) report.failures.push({ index, request: describeRequest(request), problem });
      // A reset wipes the ids the requests aim at: take new ones.
      if (route.path === "/sandbox/v1/reset" && answer.status === 200) pools = await fillPools(server);
      if ((index + 1) % 250 === 0) report.rssTrace.push(Math.round(server.rssMb()));
      if ((index + 1) % 50 === 0) {
        options.onProgress?.(index + 1);
        if (!(await healthy())) {
          report.failures.push({
            index,
            request: describeRequest(request),
            problem: "/healthz stopped answering 200 after this request",
          });
          report.alive = false;
          break;
        }
      }
    }
    if (report.alive) report.alive = await healthy();
    report.rssEndMb = server.rssMb();
    report.rssGrowthMb = report.rssEndMb - report.rssAfterSetupMb;
  } catch (error) {
    report.alive = false;
    report.failures.push({
      index: report.requests,
      request: "(harness)",
      problem: String((error as Error).stack ?? error),
    });
  } finally {
    if (server.child.exitCode !== null || server.child.signalCode !== null) report.alive = false;
    await server.stop();
  }
  report.seconds = (Date.now() - started) / 1000;
  return report;
}
