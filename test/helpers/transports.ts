/**
 * API suites that run once instead of once per transport: the same code runs in both vitest
 * projects, so a second run proves nothing. Each either chooses its transports itself (every
 * `useSandbox` passes `socket`, or the file loops over both) or never calls a host, driving the
 * domain and the clock directly. test/helpers/sandbox.ts fails a call from one of these files that
 * goes through the project's transport, so the list cannot silently drop a socket run.
 */
export const ONE_TRANSPORT_SUITES = [
  // Every sandbox chooses its transport.
  "test/api/control-deliveries.test.ts",
  "test/api/conventions.test.ts",
  "test/api/numbers.test.ts",
  "test/api/protocol-errors.test.ts",
  "test/api/webhooks-client.test.ts",
  // No host is called: the domain, the clock and a receiver only.
  "test/api/webhook-agent-preload.test.ts",
  "test/api/webhook-engine.test.ts",
  "test/api/webhook-rebinding.test.ts",
];
