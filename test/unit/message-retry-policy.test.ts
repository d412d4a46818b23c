import { describe, expect, it } from "vitest";
import { decideRetry, freshRetryColumns, RETRY_POLICY, retryStateOf } from "../../src/domain/messages/index.js";
import { cooldownMs } from "../../src/domain/world/index.js";

/** The retry state of a send whose first attempt is at `at`. */
const freshRetryState = (at: number) => retryStateOf(freshRetryColumns(), at);

const S = 1_000;
const MIN = 60 * S;
const DAY = 24 * 60 * MIN;

describe("transient errors (spec section 3): every 30 s, failed after 5 attempts", () => {
  it("retries 30 s after each of the first 4 failures and gives up on the 5th", () => {
    let state = freshRetryState(0);
    let now = 0;
    for (let attempt = 1; attempt <= 4; attempt++) {
      const decision = decideRetry(state, { kind: "transient" }, now, "+14155550101");
      expect(decision).toMatchObject({ retry: true, at: now + 30 * S, state: { attempts: attempt } });
      if (!decision.retry) throw new Error("unreachable");
      state = decision.state;
      now = decision.at;
    }
    const last = decideRetry(state, { kind: "transient" }, now, "+14155550101");
    expect(last).toMatchObject({ retry: false, state: { attempts: 5 }, error: expect.stringMatching(/5 attempts/) });
  });
});

describe("offline (spec section 3): backoff 30 s doubling to 5 min, not counted, 24 h window", () => {
  it("waits 30, 60, 120, 240, 300, 300 s and counts no attempt", () => {
    let state = freshRetryState(0);
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const decision = decideRetry(state, { kind: "offline" }, now, "+14155550101");
      if (!decision.retry) throw new Error("gave up early");
      waits.push(decision.at - now);
      state = decision.state;
      now = decision.at;
    }
    expect(waits).toEqual([30 * S, 60 * S, 120 * S, 240 * S, 300 * S, 300 * S]);
    expect(state.attempts).toBe(0);
  });

  it("places the last retry on the 24 h deadline and gives up there", () => {
    const state = { attempts: 0, firstAttemptAt: 0, backoffMs: RETRY_POLICY.offline.ceilingMs };
    expect(decideRetry(state, { kind: "offline" }, DAY - S, "+1")).toMatchObject({ retry: true, at: DAY });
    expect(decideRetry(state, { kind: "offline" }, DAY, "+1")).toMatchObject({ retry: false });
  });

  it("starts the backoff again after another kind of failure", () => {
    const state = { attempts: 0, firstAttemptAt: 0, backoffMs: 4 * MIN };
    const decision = decideRetry(state, { kind: "transient" }, 0, "+1");
    expect(decision.state.backoffMs).toBe(30 * S);
  });
});

describe("WhatsApp rate limit (docs/messages.md): cool-down 2 min doubling to 30 min", () => {
  it("doubles per repeat up to the ceiling", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(cooldownMs)).toEqual([2, 4, 8, 16, 30, 30, 30].map((m) => m * MIN));
  });

  it("retries at the end of the cool-down, uncounted, within 24 h", () => {
    const state = freshRetryState(0);
    expect(decideRetry(state, { kind: "rate_limited", until: 2 * MIN }, 0, "+1")).toMatchObject({
      retry: true,
      at: 2 * MIN,
      state: { attempts: 0 },
    });
    expect(decideRetry(state, { kind: "rate_limited", until: DAY + 30 * MIN }, DAY - MIN, "+1")).toMatchObject({
      retry: true,
      at: DAY,
    });
    expect(decideRetry(state, { kind: "rate_limited", until: DAY + 30 * MIN }, DAY, "+1")).toMatchObject({
      retry: false,
    });
  });
});
