import type { CheckProbe } from "../../contract/check-probes.js";
import type { EventType } from "../../contract/names.js";
import type { EventPayload } from "../../contract/events.js";
import { signatureHeader } from "../../lib/webhook-signature.js";

/** The replay window of spec section 5, and how far outside it the timestamp probes sign. */
const REPLAY_WINDOW_S = 300;
const OUTSIDE_WINDOW_S = REPLAY_WINDOW_S + 1;

/** One request of the battery as it goes out. */
export interface ProbeRequest {
  body: string;
  eventId: string;
  /** `X-Msgctl-Attempt`: 2 for the repeat of an event, as a retry would carry. */
  attempt: number;
  /** The `X-service-Signature` value; null sends none. */
  signature: string | null;
}

/** A probe: what a correct handler answers, and the request, signed when it is about to go. */
export interface ProbePlan {
  probe: CheckProbe;
  /** `accept`: a correct handler answers 2xx; `refuse`: anything but 2xx. */
  expect: "accept" | "refuse";
  /** What the handler must do instead, said when its answer was wrong. */
  wrong: string;
  /** Said beside a pass (after "; "), when there is still something to do that no status can show. */
  note?: string;
  /** The request, signed at `t` (wall-clock unix seconds, read just before it is sent). */
  request(t: number): ProbeRequest;
}

/** What the battery's payloads are made of: realistic events of spec section 6, fresh ids. */
export interface ProbeMaterial {
  secret: string;
  /** A secret that is not the handler's (the wrong_secret probe). */
  otherSecret: string;
  uuid(): string;
  /** An account number (`to` of an inbound message, `from` of an outbound one). */
  accountHandle: string;
  /** The contact on the other side. */
  contactHandle: string;
  /** The sandbox clock's time, ISO 8601 (payload timestamps). */
  now: string;
}

/** The battery of a handler check, in the order it is sent (docs/check.md). */
export function probeBattery(material: ProbeMaterial): ProbePlan[] {
  const { secret } = material;
  // `pretty`: the body indented as some senders send theirs, so that a handler which verifies
  // JSON parsed and serialised again (not the raw bytes) refuses it, as it would such a sender's.
  const event = <T extends EventType>(
    payload: EventPayload<T>,
    extra: Record<string, unknown> = {},
    pretty = false,
  ) => ({
    eventId: material.uuid(),
    body: JSON.stringify({ ...payload, ...extra }, null, pretty ? 2 : undefined),
  });
  const received = (probe: CheckProbe, extra: Record<string, unknown> = {}, pretty = false) =>
    event<"message.received">(
      {
        type: "message.received",
        conversation_id: material.uuid(),
        message_id: material.uuid(),
        from: material.contactHandle,
        to: material.accountHandle,
        text: `msgctl webhooks check: ${probe}`,
        channel: "imessage",
        has_attachments: false,
        created_at: material.now,
        metadata: null,
      },
      extra,
      pretty,
    );
  // One request signed with `key` at `t + skew`, the header passed through `header` (to break it).
  const signed = (
    sent: { eventId: string; body: string },
    options: { key?: string; skew?: number; header?: (value: string) => string | null; attempt?: number } = {},
  ) => {
    return (t: number): ProbeRequest => {
      const value = signatureHeader(options.key ?? secret, t + (options.skew ?? 0), sent.body);
      return { ...sent, attempt: options.attempt ?? 1, signature: options.header ? options.header(value) : value };
    };
  };

  const first = received("valid_event", {}, true);
  const outbound = { message_id: material.uuid(), conversation_id: material.uuid() };
  const lifecycle = (status: "delivered" | "read") => ({
    ...outbound,
    status,
    channel: "imessage" as const,
    from: material.accountHandle,
    to: material.contactHandle,
    sent_at: material.now,
    delivered_at: material.now,
    ...(status === "read" ? { read_at: material.now } : {}),
  });
  const tampered = received("tampered_body");

  return [
    {
      probe: "valid_event",
      expect: "accept",
      wrong:
        "a freshly signed event must be acknowledged with a 2xx. Check the secret (the whole whsec_… string) and compute the HMAC over the raw body, byte for byte: this one was sent indented, so JSON parsed and serialised again is not what was signed",
      request: signed(first),
    },
    {
      probe: "duplicate_event",
      expect: "accept",
      wrong:
        "a repeat of an event must be acknowledged again (2xx) and skipped: delivery is at-least-once, and a refused repeat is retried for a day",
      note: "delivery is at least once: make sure your handler acted on this event once only (dedupe on X-Msgctl-Event-Id), which no status code can show",
      request: signed(first, { attempt: 2 }),
    },
    {
      probe: "tampered_body",
      expect: "refuse",
      wrong:
        "the body was changed by one byte after signing: verify the HMAC over the raw, unparsed body before acting on it",
      request: (t) => {
        const sent = signed(tampered)(t);
        // One byte of the text changes ("msgctl" → "Msgctl"): still valid JSON, no longer what was signed.
        return { ...sent, body: sent.body.replace('"text":"m', '"text":"M') };
      },
    },
    {
      probe: "wrong_secret",
      expect: "refuse",
      wrong: "signed with another secret: compare v1 with the HMAC computed with your secret, in constant time",
      request: signed(received("wrong_secret"), { key: material.otherSecret }),
    },
    {
      probe: "stale_timestamp",
      expect: "refuse",
      wrong: `t is ${OUTSIDE_WINDOW_S} s in the past: reject |now - t| > ${REPLAY_WINDOW_S} s, or a captured request can be replayed`,
      request: signed(received("stale_timestamp"), { skew: -OUTSIDE_WINDOW_S }),
    },
    {
      probe: "future_timestamp",
      expect: "refuse",
      wrong: `t is ${OUTSIDE_WINDOW_S} s in the future: the replay window holds both ways, |now - t| ≤ ${REPLAY_WINDOW_S} s`,
      request: signed(received("future_timestamp"), { skew: OUTSIDE_WINDOW_S }),
    },
    {
      probe: "missing_signature",
      expect: "refuse",
      wrong: "no X-service-Signature header: an unsigned request must be refused",
      request: signed(received("missing_signature"), { header: () => null }),
    },
    {
      probe: "missing_v1",
      expect: "refuse",
      // The right HMAC under another scheme's name: a parser that takes any value after `t` accepts it.
      wrong: "the header has t and a v0 signature but no v1: accept only a v1 signature that verifies",
      request: signed(received("missing_v1"), { header: (value) => value.replace(",v1=", ",v0=") }),
    },
    {
      probe: "v1_not_hex",
      expect: "refuse",
      // The right HMAC with its last character made non-hex: a lenient hex decoder drops it and
      // compares what is left.
      wrong: "v1 ends in z, not a hex digit: a signature that does not parse must be refused, not decoded leniently",
      request: signed(received("v1_not_hex"), { header: (value) => `${value.slice(0, -1)}z` }),
    },
    {
      probe: "read_before_delivered",
      expect: "accept",
      wrong:
        "message.read came before message.delivered of the same message: events can arrive in any order, so acknowledge it and reconcile by the message's state",
      request: signed(event<"message.read">({ type: "message.read", ...lifecycle("read") })),
    },
    {
      probe: "delivered_after_read",
      expect: "accept",
      wrong:
        "message.delivered came after message.read of the same message: a late event must be acknowledged, not treated as an error (keep the furthest state)",
      request: signed(event<"message.delivered">({ type: "message.delivered", ...lifecycle("delivered") })),
    },
    {
      probe: "unknown_field",
      expect: "accept",
      wrong:
        "the payload has a field your handler does not know: fields may be added, so ignore the ones you do not use",
      request: signed(received("unknown_field", { added_later: { note: "a field this handler has never seen" } })),
    },
  ];
}

/** How a probe was answered. */
export interface ProbeAnswer {
  status: number | null;
  /** Why no status came (the connection's error), null when one did. */
  error: string | null;
  /** No answer within the acknowledgement window. */
  timedOut: boolean;
}

/** What a status that refused a valid request may mean besides the probe's own point. */
function refusalHint(status: number): string {
  if (status >= 300 && status < 400) return " (redirects are not followed: give the URL that answers)";
  if (status === 404 || status === 405) return " (is the URL's path the one your handler serves, for POST?)";
  return "";
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/**
 * A probe's verdict: a request to accept wants a 2xx, one to refuse anything else, and every
 * probe wants an answer within the acknowledgement window (spec section 6, delivery rule 1).
 * `validRefusedWith`: the status that refused the valid event, when it was refused; a later
 * valid request refused alike most likely failed for the same reason, not for its own point.
 */
export function gradeProbe(
  plan: ProbePlan,
  answer: ProbeAnswer,
  windowMs: number,
  validRefusedWith?: number,
): { verdict: "pass" | "fail"; why: string } {
  if (answer.timedOut) {
    return {
      verdict: "fail",
      why: `no answer within ${seconds(windowMs)}: a handler must answer within ${seconds(windowMs)} (answer first, do slow work afterwards)`,
    };
  }
  if (answer.status === null) {
    return {
      verdict: "fail",
      why: `no answer: ${answer.error ?? "the connection failed"}; answer every request with a status, a refusal with a 4xx`,
    };
  }
  const { status } = answer;
  const accepted = status >= 200 && status < 300;
  if (plan.expect === "refuse") {
    if (accepted) return { verdict: "fail", why: `accepted with ${status}: ${plan.wrong}` };
    // Not wrong, but a 5xx reads as a crash in your logs and monitoring: a 4xx says the request was bad.
    const crash = status >= 500 ? "; a 4xx would say the request was at fault, where a 5xx looks like a crash" : "";
    return { verdict: "pass", why: `refused with ${status}${crash}` };
  }
  if (!accepted && status === validRefusedWith) {
    return { verdict: "fail", why: `answered ${status}, as valid_event was: fix that one first` };
  }
  if (!accepted) return { verdict: "fail", why: `answered ${status}${refusalHint(status)}: ${plan.wrong}` };
  return { verdict: "pass", why: `acknowledged with ${answer.status}${plan.note ? `; ${plan.note}` : ""}` };
}
