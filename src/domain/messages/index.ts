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
export { listThreadReactions, type ReactionView } from "./reaction-list.js";
export { recordInbound, type Arrival, type ArrivalMedia } from "./receive.js";
export { memberTraits, type RecipientTraits } from "./recipients.js";
export { isValidReaction, NAMED_REACTIONS, requireReaction } from "./reactions.js";
export {
  decideRetry,
  freshRetryColumns,
  RETRY_POLICY,
  retryStateOf,
  type RetryDecision,
  type RetryState,
} from "./retry-policy.js";
export { handleAvailability, inboundChannel, whatsappJid, type HandleAvailability } from "./routing.js";
export { sendMessage, type SendResult } from "./send-message.js";
export { markChatRead } from "./thread-read.js";
export {
  applyTransition,
  canTransition,
  MESSAGE_TRANSITIONS,
  scheduleFollowUps,
  type TransitionOptions,
  type Trigger,
} from "./status-table.js";
export {
  editedFields,
  lifecycleFields,
  receivedFields,
  toMessage,
  type MessageResource,
  type MessageStatus,
} from "./views.js";

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
