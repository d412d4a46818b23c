import { AppError } from "../../lib/app-error.js";
import type { DomainContext } from "../core/context.js";
import type { Channel } from "../world/numbers.js";

/** A message as the attachment rules need it. */
export interface AttachmentHolder {
  id: string;
  media_quality: "fit" | "original";
  voice_memo: number;
}

/**
 * How messages use attachments. The attachments issue replaces these (as the faults module
 * replaces `numberStatus`); until then no attachment exists, so every well-formed id is unknown.
 */
export const messageAttachments: {
  /** Claims attachments for a message (inside its transaction); 400 invalid_attachments when one cannot be. */
  claim(ctx: DomainContext, accountId: string, ids: string[], messageId: string): void;
  /** The Message's `attachments` (only asked when the message has some). */
  list(ctx: DomainContext, messageId: string): unknown[];
  /** At the send attempt: why the media cannot go over `channel` (a permanent error), or undefined. */
  fitError(ctx: DomainContext, message: AttachmentHolder, channel: Channel): string | undefined;
} = {
  claim(_ctx, _accountId, ids) {
    throw new AppError("invalid_attachments", 400, `attachment_ids: no attachment ${ids[0]} in this account`);
  },
  list: () => [],
  fitError: () => undefined,
};
