import { beforeEach, describe, expect, it } from "vitest";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

// Spec section 6's waits, written out: the route must serve exactly these.
const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;
const SPEC_WAITS = [5 * S, 1 * MIN, 10 * MIN, 1 * H, 4 * H, 8 * H, 12 * H];

describe("GET /sandbox/v1/webhooks/retry-ladder", () => {
  const t = useSandbox();
  const receiver = useReceiver();
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
  });

  it("serves the ladder: 8 attempts and the spec's waits before attempts 2 to 8", async () => {
    const res = await t.api("GET", "/sandbox/v1/webhooks/retry-ladder");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { attempts: 8, waits_ms: SPEC_WAITS },
      request_id: expect.stringMatching(/^req_/),
    });
  });

  it("is the ladder deliveries climb: each retry comes the served wait after the attempt before", async () => {
    const { waits_ms } = (await t.api("GET", "/sandbox/v1/webhooks/retry-ladder")).body.data as { waits_ms: number[] };
    receiver.reply(() => ({ status: 500 }));
    expect((await t.api("POST", "/v1/webhooks", { body: { url: receiver.url } })).status).toBe(201);
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    for (const wait of waits_ms) await t.advance(wait);
    const [delivery] = (await t.api("GET", "/sandbox/v1/deliveries")).body.data as {
      status: string;
      attempts: { at: string }[];
    }[];
    const times = delivery?.attempts.map((attempt) => Date.parse(attempt.at)) ?? [];
    expect(times.slice(1).map((at, i) => at - (times[i] ?? 0))).toEqual(waits_ms);
    expect(delivery?.status).toBe("failed");
  });

  it("needs a key like the rest of the control API, and lives on the messaging host only", async () => {
    const refused = await t.api("GET", "/sandbox/v1/webhooks/retry-ladder", { key: null });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("unauthorized");
    const otp = await t.otp("GET", "/sandbox/v1/webhooks/retry-ladder");
    expect(otp.status).toBe(404);
    expect(otp.body.error).toBe("not_found");
  });
});
