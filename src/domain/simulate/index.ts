/**
 * The other side acting: contacts send (one-to-one and in groups),
 * react, type, edit, rename groups and change their members, and outbound messages are forced
 * forward or failed. Kept apart from world/ (the other side's state) because these actions drive
 * messages and conversations, which themselves read world/.
 */
export { simulateEdit, simulateReaction, simulateTyping } from "./activity.js";
export { simulateParticipants, simulateRename } from "./group-activity.js";
export { simulateInbound } from "./inbound.js";
export { simulateFailure, simulateProgress } from "./progress.js";
