import { firstAttemptFinished } from "../../client/delivered.js";
import { challengeReached, messageReached } from "../../client/status-reached.js";
import type { ScenarioStep } from "../../contract/scenario-file.js";
import { parseDuration } from "../../lib/duration.js";
import { brief, done, StepFailed, type Done, type StepContext } from "./context.js";
import { deliveriesOf, deliveryLines, eventsSince, matching, nearestEvents } from "./observe.js";

type WaitBody = Extract<ScenarioStep, { kind: "wait" }>["body"];

const POLL_MS = 100;
const DEFAULT_TIMEOUT = "10s";
const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/**
 * Polls `look` every 100 ms of real time until it answers, or throws StepFailed at the timeout
 * with what `lastSeen` says was there.
 */
async function pollUntil<T>(
  timeout: string | undefined,
  what: string,
  look: () => Promise<{ found?: T; never?: string }>,
  lastSeen: () => Promise<string[]>,
): Promise<T> {
  const deadline = Date.now() + parseDuration(timeout ?? DEFAULT_TIMEOUT);
  for (;;) {
    const { found, never } = await look();
    if (found !== undefined) return found;
    if (never) throw new StepFailed(never, await lastSeen());
    if (Date.now() >= deadline)
      throw new StepFailed(
        `${what} within ${timeout ?? DEFAULT_TIMEOUT} (real time; on a manual clock, advance it or use expect with within)`,
        await lastSeen(),
      );
    await pause();
  }
}

/** `wait`: blocks (real time) until a message or challenge reaches a status, or an event arrives. */
export async function waitStep(body: WaitBody, context: StepContext): Promise<Done> {
  const { client, since } = context;
  if (body.message) {
    const { id, status, timeout } = body.message;
    let last = "";
    const message = await pollUntil(
      timeout,
      `message ${id} did not reach ${status}`,
      async () => {
        const seen = await client.messages.get(id);
        last = `${seen.status}${seen.error ? ` (${seen.error})` : ""}`;
        const verdict = messageReached(seen.status, status);
        return verdict === true
          ? { found: seen }
          : { never: verdict === "never" ? `message ${id} is ${last}: it will not be ${status}` : undefined };
      },
      async () => [`seen: message ${id} ${last}`],
    );
    return done(`${id} is ${message.status}`, message);
  }
  if (body.otp) {
    const { id, status, timeout } = body.otp;
    let last = "";
    const challenge = await pollUntil(
      timeout,
      `challenge ${id} did not reach ${status}`,
      async () => {
        const seen = await client.otp.get(id);
        last = seen.status;
        const verdict = challengeReached(seen.status, status);
        return verdict === true
          ? { found: seen }
          : { never: verdict === "never" ? `challenge ${id} is ${last}: it will not be ${status}` : undefined };
      },
      async () => [`seen: challenge ${id} ${last}`],
    );
    return done(`${id} is ${challenge.status}`, challenge);
  }
  const want = body.event as NonNullable<WaitBody["event"]>;
  const event = await pollUntil(
    want.timeout,
    `no ${want.type} event${want.match ? ` matching ${brief(want.match)}` : ""}`,
    async () => ({ found: matching(await eventsSince(client, since, want.type), want.match)[0] }),
    () => nearestEvents(client, since, want.type, want.match),
  );
  if (want.delivered) {
    await pollUntil(
      want.timeout,
      `${want.type} ${event.id} arrived, but not every first delivery attempt finished`,
      async () => {
        const deliveries = await deliveriesOf(client, event.id);
        return { found: deliveries.every(firstAttemptFinished) ? deliveries : undefined };
      },
      async () => (await deliveriesOf(client, event.id)).flatMap(deliveryLines),
    );
  }
  return done(`${want.type} ${event.id}${want.delivered ? " delivered" : ""}`, event);
}
