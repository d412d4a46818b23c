/**
 * The other side acting (SANDBOX.md sections 3 and 6): contacts send, react, type and edit, and
 * outbound messages are forced forward or failed. Kept apart from world/ (the other side's state)
 * because these actions drive messages and conversations, which themselves read world/.
 */
export { simulateEdit, simulateReaction, simulateTyping } from "./activity.js";
export { simulateInbound } from "./inbound.js";
export { simulateFailure, simulateProgress } from "./progress.js";
