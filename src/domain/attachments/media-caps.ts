import type { AttachmentDelivery, MediaDecision } from "../../contract/attachments.js";
import type { Channel } from "../../contract/common.js";
import { listAttachmentsOfMessage, updateAttachment, type AttachmentRow } from "../../store/attachments/index.js";
import { scheduleJob, type DomainContext } from "../core/index.js";
import { mediaKind } from "./sniff.js";
import { deliveryOf } from "./views.js";

/** A message as the media rules need it. */
export interface AttachmentHolder {
  id: string;
  media_quality: "fit" | "original";
}

/** The terms a decision was made under: a later attempt on other terms decides again. */
export interface MediaTerms {
  channel: Channel;
  /** As applied: WhatsApp ignores `media_quality` and always fits. */
  quality: "fit" | "original";
  capBytes: number;
}

/** The terms of a message's media on `channel`: the channel's cap (a setting) and the quality that applies. */
function termsOf(ctx: DomainContext, message: AttachmentHolder, channel: Channel): MediaTerms {
  return {
    channel,
    quality: channel === "whatsapp" ? "fit" : message.media_quality,
    capBytes: ctx.settings.mediaCapBytes[channel],
  };
}

/** Image types sharp decodes; other images are treated like any other file. */
const TRANSCODABLE_IMAGES = new Set([
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/gif",
  "image/avif",
  "image/tiff",
  "image/heic",
  "image/heif",
]);

/** What the caps say about one file on some terms, before any transcoding. */
export type CapVerdict =
  | { decision: "unchanged" }
  | { decision: "transcode"; kind: "image" | "video" }
  | { decision: "rejected"; error: string };

const CHANNEL_NAMES: Record<Channel, string> = { imessage: "iMessage", sms: "SMS/MMS", whatsapp: "WhatsApp" };

/** Bytes for people: `512 B`, `48.0 KiB`, `2.4 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** "the SMS/MMS media cap of 1.0 MiB" */
export const capText = (terms: MediaTerms) =>
  `the ${CHANNEL_NAMES[terms.channel]} media cap of ${formatBytes(terms.capBytes)}`;

/**
 * The media caps (spec 3 and 4.3): at or under the cap a file goes as it
 * is; over it, `original` fails the send, and `fit` transcodes images and video while any other
 * file fails.
 */
export function capVerdict(
  file: Pick<AttachmentRow, "filename" | "mime_type" | "size_bytes">,
  terms: MediaTerms,
): CapVerdict {
  if (file.size_bytes <= terms.capBytes) return { decision: "unchanged" };
  const what = `Attachment ${file.filename} (${file.mime_type}, ${formatBytes(file.size_bytes)}) is over ${capText(terms)}`;
  if (terms.quality === "original")
    return { decision: "rejected", error: `${what} and media_quality is original (never transcoded)` };
  const kind = mediaKind(file.mime_type);
  if (kind === "video") return { decision: "transcode", kind };
  if (kind === "image" && TRANSCODABLE_IMAGES.has(file.mime_type)) return { decision: "transcode", kind };
  return { decision: "rejected", error: `${what}; only images and video are transcoded to fit` };
}

/** True when a recorded decision was made on these terms (so it still holds). */
export function decidedOn(delivery: AttachmentDelivery | null, terms: MediaTerms): delivery is AttachmentDelivery {
  return (
    delivery !== null &&
    delivery.channel === terms.channel &&
    delivery.media_quality === terms.quality &&
    delivery.cap_bytes === terms.capBytes
  );
}

/** What a decision records besides its terms. */
export interface DecisionRecord {
  decision: MediaDecision;
  transcoder?: "sharp" | "ffmpeg" | null;
  deliveredSize: number | null;
  error?: string | null;
  /** The smaller copy that goes out, when one was made. */
  copy?: { hash: string; size: number; mimeType: string; filename: string };
}

/** Writes a decision on the attachment: `delivery`, and the delivered copy (or none: the upload goes). */
export function recordDecision(
  ctx: DomainContext,
  row: AttachmentRow,
  terms: MediaTerms,
  record: DecisionRecord,
): void {
  const delivery: AttachmentDelivery = {
    channel: terms.channel,
    cap_bytes: terms.capBytes,
    media_quality: terms.quality,
    decision: record.decision,
    transcoder: record.transcoder ?? null,
    original_size_bytes: row.size_bytes,
    original_mime_type: row.mime_type,
    delivered_size_bytes: record.deliveredSize,
    error: record.error ?? null,
  };
  updateAttachment(ctx.db, row.id, {
    delivery: JSON.stringify(delivery),
    delivered_blob: record.copy?.hash ?? null,
    delivered_size_bytes: record.copy?.size ?? null,
    delivered_mime_type: record.copy?.mimeType ?? null,
    delivered_filename: record.copy?.filename ?? null,
    updated_at: ctx.clock.now(),
  });
}

/** A job to run once the media is ready (the send attempt, run again). */
export interface FollowUp {
  kind: string;
  payload: unknown;
}

/** The job kind that transcodes a message's media (real work, outside any transaction). */
export const TRANSCODE_JOB = "attachments.transcode";

/** The payload of a transcode job. */
export interface TranscodeJob {
  message_id: string;
  terms: MediaTerms;
  then: FollowUp;
}

/** Whether a message's media can go now, must fail the send, or is being transcoded first. */
export type MediaPlan = { kind: "ready" } | { kind: "failed"; error: string } | { kind: "transcoding" };

/**
 * At a send attempt, on the resolved channel (inside the attempt's transaction): records the
 * decision for every attachment that needs no transcoding, fails the send at the first one that
 * cannot fit, and otherwise, when some must be transcoded, schedules that work at once with the
 * attempt to run again (`then`) when it is done. Decisions already made on the same terms hold.
 */
export function prepareMessageMedia(
  ctx: DomainContext,
  message: AttachmentHolder,
  channel: Channel,
  then: FollowUp,
): MediaPlan {
  const terms = termsOf(ctx, message, channel);
  let transcoding = false;
  for (const row of listAttachmentsOfMessage(ctx.db, message.id)) {
    const recorded = deliveryOf(row);
    if (decidedOn(recorded, terms)) {
      if (recorded.decision === "rejected")
        return { kind: "failed", error: recorded.error ?? "An attachment cannot be sent" };
      continue;
    }
    const verdict = capVerdict(row, terms);
    if (verdict.decision === "transcode") {
      transcoding = true;
    } else if (verdict.decision === "unchanged") {
      recordDecision(ctx, row, terms, { decision: "unchanged", deliveredSize: row.size_bytes });
    } else {
      recordDecision(ctx, row, terms, { decision: "rejected", deliveredSize: null, error: verdict.error });
      return { kind: "failed", error: verdict.error };
    }
  }
  if (!transcoding) return { kind: "ready" };
  const job: TranscodeJob = { message_id: message.id, terms, then };
  scheduleJob(ctx, TRANSCODE_JOB, job, ctx.clock.now());
  return { kind: "transcoding" };
}
