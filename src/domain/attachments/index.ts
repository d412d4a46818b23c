/** Attachments: what messages claim, list and check against channel caps (spec 4.2, SANDBOX.md section 5). */
export { claimAttachments, listMessageAttachments, mediaFitError, type AttachmentHolder } from "./message-media.js";
