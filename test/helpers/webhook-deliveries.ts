import { beforeEach, expect } from "vitest";
import { useSandbox, type TestSandbox } from "./sandbox.js";
import { useReceiver } from "./webhook-receiver.js";

/** Subscribes a webhook endpoint at `url` (POST /v1/webhooks, 201), answering its id and secret. */
export async function createHook(t: TestSandbox, url: string, body: Record<string, unknown> = {}) {
  const res = await t.api("POST", "/v1/webhooks", { body: { url, ...body } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

/** The deliveries as GET /sandbox/v1/deliveries lists them (200), with each attempt. */
export async function deliveries(t: TestSandbox, query = "") {
  const res = await t.api("GET", `/sandbox/v1/deliveries${query}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    id: string;
    webhook_id: string;
    event_id: string;
    event_type: string;
    status: string;
    attempts: {
      n: number;
      at: string;
      status_code: number | null;
      error: string | null;
      duration_ms: number;
      signature: string | null;
    }[];
    next_attempt_at: string | null;
  }[];
}

/** A sandbox and a real receiver answering 204, both reset before each test. Call inside a describe. */
export function useDeliverySandbox() {
  const t = useSandbox();
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    receiver.maxConcurrent = 0;
    receiver.reply(() => ({ status: 204 }));
  });
  return { t, receiver };
}
