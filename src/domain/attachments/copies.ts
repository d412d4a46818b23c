import type { Channel } from "../../contract/common.js";
import {
  insertAttachments,
  listAttachmentsOfMessage,
  type AttachmentRow,
  type AttachmentsTable,
} from "../../store/attachments/index.js";
import type { DomainContext } from "../core/index.js";
import { mediaKind } from "./sniff.js";

/**
 * The attachments of one message repeated on another: each of the account's numbers in a group
 * records its own copy of a group message (spec 4.5), and a copy brings its own attachments, with
 * their own ids, since an attachment belongs to one message (spec section 2). Each copy holds
 * what arrived: the delivered file where a smaller one went out, the same bytes in the blob store
 * (no bytes are copied). WhatsApp reports the length of audio and video; other channels none.
 */
export function copyAttachments(
  ctx: DomainContext,
  accountId: string,
  fromMessageId: string,
  toMessageId: string,
  channel: Channel,
): void {
  const now = ctx.clock.now();
  const timed = (row: AttachmentRow) =>
    ["audio", "video"].includes(mediaKind(row.delivered_mime_type ?? row.mime_type));
  const copies = listAttachmentsOfMessage(ctx.db, fromMessageId).map(
    (row): AttachmentsTable => ({
      id: ctx.ids.uuid(),
      account_id: accountId,
      message_id: toMessageId,
      position: row.position,
      status: "uploaded",
      filename: row.delivered_filename ?? row.filename,
      mime_type: row.delivered_mime_type ?? row.mime_type,
      size_bytes: row.delivered_size_bytes ?? row.size_bytes,
      blob: row.delivered_blob ?? row.blob,
      upload_content_type: null,
      upload_expires_at: null,
      is_voice_memo: row.is_voice_memo,
      media_duration_seconds: row.media_duration_seconds,
      duration_seconds:
        channel === "whatsapp" && timed(row) ? (row.duration_seconds ?? row.media_duration_seconds) : null,
      delivered_blob: null,
      delivered_size_bytes: null,
      delivered_mime_type: null,
      delivered_filename: null,
      delivery: null,
      created_at: now,
      updated_at: now,
    }),
  );
  insertAttachments(ctx.db, copies);
}
