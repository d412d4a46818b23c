import { firstAttemptFinished } from "../../client/delivered.js";
import { ApiError } from "../../client/http.js";
import { messageReached } from "../../client/status-reached.js";
import type { Delivery, DeliveryStatus, MessageStatus } from "../../contract/index.js";
import type { ScenarioStep } from "../../contract/scenario-file.js";
import { parseDuration } from "../../lib/duration.js";
import { describeMismatch, subsetMismatches } from "../json-subset.js";
import { brief, done, type Outcome, type StepContext } from "./context.js";
import { deliveriesOf, deliveryLines, eventsSince, matching, messageHistory, nearestEvents } from "./observe.js";

type ExpectBody = Extract<ScenarioStep, { kind: "expect" }>["body"];

/** One look: whether the expectation holds, and if not, what was seen. */
interface Check {
  held: boolean;
  /** It can no longer hold (a failed message will not be delivered): stop looking. */
  never?: boolean;
  /** A line about what was found, or about what was missing. */
  summary: string;
  seen: string[];
  result?: unknown;
}

// With `within` on a manual clock the clock moves in steps of a hundredth of it, at least this.
const SMALLEST_STEP_MS = 100;
const REAL_CLOCK_POLL_MS = 100;

/** What the expectation asks for, in words. */
function expectedText(body: ExpectBody): string {
  if (body.event) {
    const delivered =
      body.delivered === undefined
        ? ""
        : body.delivered
          ? ", answered 2xx by every endpoint"
          : ", answered 2xx by none";
    return `a ${body.event} event${body.match ? ` whose payload contains ${brief(body.match)}` : ""}${delivered}`;
  }
  if (body.message)
    return `message ${body.message}${body.status ? ` at ${body.status} (or past it)` : ""}${body.match ? `, containing ${brief(body.match)}` : ""}`;
  const d = body.delivery;
  const attempts =
    body.attempts === undefined
      ? ""
      : typeof body.attempts === "number"
        ? `, ${body.attempts} attempt(s)`
        : `, attempts ${brief(body.attempts)}`;
  return `a delivery of a ${d?.event} event${d?.match ? ` whose payload contains ${brief(d.match)}` : ""}${d?.webhook ? ` to endpoint ${d.webhook}` : ""}${body.status ? `, ${body.status}` : ""}${attempts}`;
}

async function checkEvent(body: ExpectBody, { client, since }: StepContext): Promise<Check> {
  const type = body.event as NonNullable<ExpectBody["event"]>;
  const found = matching(await eventsSince(client, since, type), body.match);
  if (found.length === 0)
    return {
      held: false,
      summary: `no matching ${type} event`,
      seen: await nearestEvents(client, since, type, body.match),
    };
  if (body.delivered === undefined)
    return { held: true, summary: `${type} ${found[0]?.id}`, seen: [], result: found[0] };
  const seen: string[] = [];
  for (const event of found) {
    const deliveries = await deliveriesOf(client, event.id);
    const held =
      deliveries.length > 0 &&
      deliveries.every((d) =>
        body.delivered ? d.status === "succeeded" : d.status !== "succeeded" && firstAttemptFinished(d),
      );
    if (held)
      return { held, summary: `${type} ${event.id}, ${deliveries.length} delivery(ies)`, seen: [], result: event };
    seen.push(
      `${type} ${event.id}:`,
      ...(deliveries.length === 0 ? ["  no endpoint was subscribed to it"] : deliveries.flatMap(deliveryLines)),
    );
  }
  return {
    held: false,
    summary: `${type} ${body.delivered ? "not answered 2xx by every endpoint" : "answered 2xx"}`,
    seen,
  };
}

async function checkMessage(body: ExpectBody, { client, since }: StepContext): Promise<Check> {
  const id = body.message as string;
  let message;
  try {
    message = await client.messages.get(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return { held: false, never: true, summary: `no message ${id} in this account`, seen: [] };
    throw error;
  }
  const verdict = body.status ? messageReached(message.status, body.status as MessageStatus) : true;
  const off = body.match ? subsetMismatches(body.match, message) : [];
  if (verdict === true && off.length === 0)
    return { held: true, summary: `${id} ${message.status}`, seen: [], result: message };
  return {
    held: false,
    never: verdict === "never",
    summary: `message ${id} is ${message.status}`,
    seen: [
      `status ${message.status}${message.error ? ` (${message.error})` : ""}`,
      ...off.map(describeMismatch),
      "its history:",
      ...(await messageHistory(client, since, id)),
    ],
  };
}

function deliveryHolds(body: ExpectBody, delivery: Delivery): boolean {
  if (body.status && delivery.status !== (body.status as DeliveryStatus)) return false;
  if (typeof body.attempts === "number") return delivery.attempts.length === body.attempts;
  if (Array.isArray(body.attempts)) return subsetMismatches(body.attempts, delivery.attempts).length === 0;
  return true;
}

async function checkDelivery(body: ExpectBody, { client, since }: StepContext): Promise<Check> {
  const want = body.delivery as NonNullable<ExpectBody["delivery"]>;
  const events = matching(await eventsSince(client, since, want.event), want.match);
  if (events.length === 0)
    return {
      held: false,
      summary: `no matching ${want.event} event`,
      seen: await nearestEvents(client, since, want.event, want.match),
    };
  const seen: string[] = [];
  for (const event of events) {
    const deliveries = (await deliveriesOf(client, event.id)).filter(
      (d) => !want.webhook || d.webhook_id === want.webhook,
    );
    const found = deliveries.find((d) => deliveryHolds(body, d));
    if (found) return { held: true, summary: `delivery ${found.id} ${found.status}`, seen: [], result: found };
    seen.push(
      `${want.event} ${event.id}:`,
      ...(deliveries.length === 0 ? ["  no delivery (no endpoint subscribed)"] : deliveries.flatMap(deliveryLines)),
    );
  }
  return { held: false, summary: "no delivery as expected", seen };
}

/**
 * `expect`: settles first, then looks. With `within`, on a manual clock it advances the clock
 * step by step (a hundredth of `within`, at least 100 ms) until the expectation holds or `within`
 * has passed; on a real clock it looks again every 100 ms of real time for that long.
 */
export async function expectStep(body: ExpectBody, context: StepContext): Promise<Outcome> {
  const { client } = context;
  const check = body.event ? checkEvent : body.message ? checkMessage : checkDelivery;
  const limit = body.within ? parseDuration(body.within) : 0;
  const manual = limit > 0 && (await client.sandbox.clock()).mode === "manual";
  const step = Math.max(SMALLEST_STEP_MS, Math.ceil(limit / 100));
  const started = Date.now();
  let advanced = 0;
  for (;;) {
    await client.sandbox.settle();
    const look = await check(body, context);
    if (look.held) return done(look.summary, look.result);
    const over = manual ? advanced >= limit : Date.now() - started >= limit;
    if (look.never || over) {
      const after = limit === 0 ? "" : manual ? ` after advancing ${body.within}` : ` after ${body.within}`;
      return {
        passed: false,
        message: `${look.summary}${after}`,
        details: [
          `expected: ${expectedText(body)}`,
          `seen:     ${look.summary}${after}`,
          ...look.seen.map((line) => `  ${line}`),
        ],
      };
    }
    if (manual) {
      const by = Math.min(step, limit - advanced);
      await client.sandbox.advance(by);
      advanced += by;
    } else {
      await new Promise((resolve) => setTimeout(resolve, REAL_CLOCK_POLL_MS));
    }
  }
}
