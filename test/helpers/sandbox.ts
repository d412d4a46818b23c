import { relative, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import type { SandboxOptions } from "../../src/runtime/sandbox-options.js";
import { conformanceChecker, type RecordedAnswer } from "./openapi-conformance.js";
import { ONE_TRANSPORT_SUITES } from "./transports.js";

/** The default fixture's keys. */
export const KEY = "sk_test_acme_0000000000000000";
export const OTP_KEY = "otp_live_acme_000000000000000";

/** A parsed answer of the API. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** Options of one call: a JSON body (or raw string or bytes), the key (null for none), headers. */
export interface CallOptions {
  body?: unknown;
  key?: string | null;
  headers?: Record<string, string>;
}

/** A sandbox for one test file, with `call` over `app.request` (in-process) or a real socket. */
export interface TestSandbox {
  sandbox: Sandbox;
  /** Calls the messaging host. */
  api(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Calls the OTP host. */
  otp(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Advances the manual clock. */
  advance(ms: number): Promise<number>;
  /** The test expects the server to log an error (a bug path under test): it is not a failure. */
  expectServerErrors(): string[];
}

const ROOT = resolve(import.meta.dirname, "../..");

/** How API suites reach the hosts: set per vitest project (vitest.config.ts). */
const TRANSPORT = process.env.MSGCTL_TEST_TRANSPORT === "socket" ? "socket" : "in-process";

async function call(
  record: (answer: RecordedAnswer) => void,
  send: (path: string, init: RequestInit) => Promise<Response>,
  defaultKey: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? defaultKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (options.body !== undefined) {
    body =
      typeof options.body === "string" || options.body instanceof Uint8Array
        ? (options.body as string | Uint8Array<ArrayBuffer>)
        : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await send(path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  record({
    method,
    path: path.split("?")[0] as string,
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: parsed,
  });
  return { status: response.status, headers: response.headers, body: parsed };
}

/**
 * Starts a sandbox (manual clock, in-memory) around the tests of a file, reached in-process or
 * over a socket as the vitest project says (`socket: true` always uses a socket: streams and
 * receivers need one). A test fails when the server logged an error it did not expect.
 */
export function useSandbox(options: SandboxOptions & { socket?: boolean } = {}): TestSandbox {
  const { socket: needsSocket = false, ...sandboxOptions } = options;
  const socket = needsSocket || TRANSPORT === "socket";
  // A suite that runs in one project only must not reach a host through that project's transport.
  const file = relative(ROOT, expect.getState().testPath ?? "");
  const checkTransport = () => {
    if (options.socket === undefined && ONE_TRANSPORT_SUITES.includes(file))
      throw new Error(
        `${file} runs in one vitest project only (test/helpers/transports.ts): pass useSandbox({ socket }) or remove it from that list`,
      );
  };
  const handle = {} as TestSandbox;
  const logged: string[] = [];
  // Every answer is checked against its host's OpenAPI document when the file's tests are done.
  const answers = { messaging: [] as RecordedAnswer[], otp: [] as RecordedAnswer[] };
  let expected = false;
  const logger = {
    info() {},
    warn() {},
    error(message: string, fields?: Record<string, unknown>) {
      logged.push(`${message} ${JSON.stringify(fields ?? {})}`);
      options.logger?.error(message, fields);
    },
  };
  beforeAll(async () => {
    const sandbox = await launchSandbox({ clock: "manual", listen: socket, ...sandboxOptions, logger });
    const messaging = socket
      ? (path: string, init: RequestInit) => fetch(sandbox.baseUrl + path, init)
      : (path: string, init: RequestInit) => Promise.resolve(sandbox.messagingApp.request(path, init));
    const otp = socket
      ? (path: string, init: RequestInit) => fetch(sandbox.otpUrl + path, init)
      : (path: string, init: RequestInit) => Promise.resolve(sandbox.otpApp.request(path, init));
    Object.assign(handle, {
      sandbox,
      api: (method: string, path: string, o?: CallOptions) => {
        checkTransport();
        return call((a) => answers.messaging.push(a), messaging, KEY, method, path, o);
      },
      otp: (method: string, path: string, o?: CallOptions) => {
        checkTransport();
        return call((a) => answers.otp.push(a), otp, OTP_KEY, method, path, o);
      },
      advance: (ms: number) => sandbox.scheduler.advance(ms),
      expectServerErrors() {
        expected = true;
        return logged;
      },
    });
  });
  afterEach(() => {
    const errors = logged.splice(0);
    if (expected) expected = false;
    else expect(errors, "the server logged errors this test did not expect").toEqual([]);
  });
  afterAll(async () => {
    const sandbox = handle.sandbox;
    if (!sandbox) return;
    const violations: string[] = [];
    for (const [host, app] of [
      ["messaging", sandbox.messagingApp],
      ["otp", sandbox.otpApp],
    ] as const) {
      if (answers[host].length === 0) continue;
      const check = conformanceChecker(await (await app.request("/openapi.json")).json());
      for (const answer of answers[host]) {
        const problem = check(answer);
        if (problem && !violations.includes(problem)) violations.push(problem);
      }
    }
    await sandbox.stop();
    expect(violations, "answers outside the host's OpenAPI document").toEqual([]);
  });
  return handle;
}
