/**
 * Messages (spec 3, 4.3): sends and their status table, the retry policies, routing per
 * recipient, reactions, edits and unsends, and the views and event payloads of a message.
 */
import type { DomainModule } from "../core/index.js";
import { ACTION_JOB, runActionAttempt } from "./actions.js";
import { runAcknowledge, runRead, runSendAttempt } from "./lifecycle-jobs.js";
import { MESSAGE_JOBS } from "./follow-ups.js";

export { editMessage, reactToMessage, retryMessage, unsendMessage } from "./actions.js";
export { acknowledgeByMember, groupOfMessage, openReceipts, otherCopies, readByMember } from "./group-delivery.js";
export { getMessage, listMessages, messageForField, messageForPath } from "./queries.js";
export { listThreadReactions } from "./reaction-list.js";
export { recordInbound, type ArrivalMedia } from "./receive.js";
export { isValidReaction, requireReaction } from "./reactions.js";
export { decideRetry, freshRetryColumns, RETRY_POLICY, retryStateOf } from "./retry-policy.js";
export { handleAvailability, inboundChannel } from "./routing.js";
export { sendMessage } from "./send-message.js";
export { markChatRead } from "./thread-read.js";
export { applyTransition, canTransition, type TransitionOptions, type Trigger } from "./status-table.js";
export { editedFields, toMessage, type MessageResource } from "./views.js";

/** What messages plug in: the outbound lifecycle's jobs and the pending actions' attempts. */
export const messagesModule: DomainModule = {
  name: "messages",
  jobs: {
    [MESSAGE_JOBS.send]: runSendAttempt,
    [MESSAGE_JOBS.acknowledge]: runAcknowledge,
    [MESSAGE_JOBS.read]: runRead,
    [ACTION_JOB]: runActionAttempt,
  },
};
