import type { Channel } from "../../contract/common.js";
import { AppError, invalidRequest } from "../../lib/app-error.js";
import {
  claimAttachment,
  findAccountAttachments,
  listAttachmentsOfMessage,
  type AttachmentRow,
} from "../../store/attachments/index.js";
import type { DomainContext } from "../core/index.js";
import { isVoiceNoteFormat, mediaKind } from "./sniff.js";
import { toAttachment, type AttachmentResource } from "./views.js";

const invalidAttachments = (message: string) => new AppError("invalid_attachments", 400, message);

/**
 * The account's uploaded, unclaimed attachments with these ids, in order; 400
 * invalid_attachments naming the first that is unknown, another account's, already claimed, or
 * still waiting for its presigned PUT (spec 4.3).
 */
function claimable(ctx: DomainContext, accountId: string, ids: string[]): AttachmentRow[] {
  const found = new Map(
    findAccountAttachments(
      ctx.db,
      accountId,
      ids.map((id) => id.toLowerCase()),
    ).map((row) => [row.id, row]),
  );
  return ids.map((id) => {
    const row = found.get(id.toLowerCase());
    if (!row) throw invalidAttachments(`attachment_ids: no attachment ${id} in this account`);
    if (row.message_id !== null)
      throw invalidAttachments(
        `attachment_ids: attachment ${id} was already used by message ${row.message_id}; attachments are single-use, upload it again`,
      );
    if (row.status !== "uploaded")
      throw invalidAttachments(`attachment_ids: attachment ${id} has no bytes yet: PUT them to its upload_url first`);
    return row;
  });
}

/** Marks the rows as the message's, in order; a row another transaction took first is 400 (never here: claims are synchronous). */
function take(
  ctx: DomainContext,
  accountId: string,
  rows: AttachmentRow[],
  messageId: string,
  fields: (row: AttachmentRow) => { is_voice_memo: number; duration_seconds: number | null },
): void {
  const now = ctx.clock.now();
  rows.forEach((row, position) => {
    if (
      !claimAttachment(ctx.db, accountId, row.id, { message_id: messageId, position, ...fields(row), updated_at: now })
    ) {
      throw invalidAttachments(`attachment_ids: attachment ${row.id} was already used by another message`);
    }
  });
}

/**
 * Claims attachments for an outbound message, inside the send's transaction: a refused send
 * claims nothing, and of two sends of one attachment only the first commits its claim. With
 * `voice_memo`, the audio attachments become voice notes; a voice memo needs one.
 */
export function claimAttachments(
  ctx: DomainContext,
  accountId: string,
  ids: string[],
  messageId: string,
  options: { voiceMemo?: boolean } = {},
): void {
  const rows = claimable(ctx, accountId, ids);
  const isAudio = (row: AttachmentRow) => mediaKind(row.mime_type) === "audio";
  if (options.voiceMemo && !rows.some(isAudio))
    throw invalidRequest("voice_memo: needs an audio attachment in attachment_ids");
  take(ctx, accountId, rows, messageId, (row) => ({
    is_voice_memo: options.voiceMemo && isAudio(row) ? 1 : 0,
    duration_seconds: null,
  }));
}

/** What an inbound message says about its media. */
export interface InboundMedia {
  channel: Channel;
  voiceMemo?: boolean;
  durationSeconds?: number;
}

/**
 * Attaches uploads to an inbound message (`simulate inbound --attach`). Audio in a voice-note
 * format (Ogg Opus, Core Audio, AMR), or any audio with `voiceMemo`, is flagged `is_voice_memo`.
 * WhatsApp reports the length of audio and video (spec section 2): `durationSeconds` when given,
 * else the length read from the file; other channels report none.
 */
export function attachInbound(
  ctx: DomainContext,
  accountId: string,
  ids: string[],
  messageId: string,
  media: InboundMedia,
): void {
  const rows = claimable(ctx, accountId, ids);
  const kindOf = (row: AttachmentRow) => mediaKind(row.mime_type);
  const timed = rows.filter((row) => kindOf(row) === "audio" || kindOf(row) === "video");
  if (media.voiceMemo && !rows.some((row) => kindOf(row) === "audio"))
    throw invalidRequest("voice_memo: needs an audio attachment in attachment_ids");
  if (media.durationSeconds !== undefined && media.channel !== "whatsapp") {
    throw invalidRequest(
      `duration_seconds: only WhatsApp reports durations (this message arrives by ${media.channel})`,
    );
  }
  if (media.durationSeconds !== undefined && timed.length === 0)
    throw invalidRequest("duration_seconds: needs an audio or video attachment");
  take(ctx, accountId, rows, messageId, (row) => {
    const audio = kindOf(row) === "audio";
    const reportsDuration = media.channel === "whatsapp" && timed.includes(row);
    return {
      is_voice_memo: audio && (media.voiceMemo || isVoiceNoteFormat(row.mime_type)) ? 1 : 0,
      duration_seconds: reportsDuration ? (media.durationSeconds ?? row.media_duration_seconds) : null,
    };
  });
}

/** The Message's `attachments`, in order, each with a fresh signed URL. */
export function listMessageAttachments(ctx: DomainContext, messageId: string): AttachmentResource[] {
  return listAttachmentsOfMessage(ctx.db, messageId).map((row) => toAttachment(ctx, row));
}
