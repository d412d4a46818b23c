import type { Channel } from "../../contract/common.js";
import { AppError } from "../../lib/app-error.js";
import type { DomainContext } from "../core/index.js";

/** A message as the attachment rules need it. */
export interface AttachmentHolder {
  id: string;
  media_quality: "fit" | "original";
  voice_memo: number;
}

/**
 * Claims attachments for a message, inside its transaction; 400 invalid_attachments when one
 * cannot be claimed. Uploads do not exist yet (the attachments issue), so every id is unknown.
 */
export function claimAttachments(_ctx: DomainContext, _accountId: string, ids: string[], _messageId: string): void {
  throw new AppError("invalid_attachments", 400, `attachment_ids: no attachment ${ids[0]} in this account`);
}

/** The Message's `attachments` (asked only when the message has some). */
export function listMessageAttachments(_ctx: DomainContext, _messageId: string): unknown[] {
  return [];
}

/** At the send attempt: why the media cannot go over `channel` (a permanent error), or undefined. */
export function mediaFitError(_ctx: DomainContext, _message: AttachmentHolder, _channel: Channel): string | undefined {
  return undefined;
}
