import type { EventFanOut } from "../domain/core/context.js";
import type { JobHandler } from "../domain/core/jobs.js";
import { ACTION_JOB, runActionAttempt } from "../domain/messages/actions.js";
import { messageJobHandlers } from "../domain/messages/lifecycle-jobs.js";
import { runDeliveryAttempt } from "../domain/webhooks/attempt.js";
import { ATTEMPT_JOB, fanOutToWebhooks } from "../domain/webhooks/deliveries.js";

/**
 * Where each area of the domain plugs into the scheduler and the outbox. An area adds its job
 * kinds here and, if it reacts to every event (webhook fan-out), its fan-out function.
 */
export const jobHandlers: Record<string, JobHandler> = {
  [ATTEMPT_JOB]: runDeliveryAttempt,
  ...messageJobHandlers,
  [ACTION_JOB]: runActionAttempt,
};

/** Functions run inside every event's transaction, in order. */
export const eventFanOuts: EventFanOut[] = [fanOutToWebhooks];
