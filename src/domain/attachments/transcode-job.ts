import { withExtension } from "../../lib/filename.js";
import { findAttachmentById, listAttachmentsOfMessage, type AttachmentRow } from "../../store/attachments/index.js";
import { scheduleJob, type DomainContext, type JobHandler } from "../core/index.js";
import { fitImage } from "./image-fit.js";
import {
  capText,
  capVerdict,
  decidedOn,
  formatBytes,
  recordDecision,
  type DecisionRecord,
  type MediaTerms,
  type TranscodeJob,
} from "./media-caps.js";
import { deliveryOf } from "./views.js";
import { fitVideo } from "./video-fit.js";

const cannotFit = (row: AttachmentRow, terms: MediaTerms, smallest: number) =>
  `Attachment ${row.filename} (${row.mime_type}, ${formatBytes(row.size_bytes)}) cannot fit ${capText(terms)} even after transcoding` +
  (Number.isFinite(smallest) ? ` (smallest copy ${formatBytes(smallest)})` : "");

/** The size a copy made where no transcoder is at hand is recorded with: 90 % of the cap. */
const simulatedSize = (row: AttachmentRow, terms: MediaTerms) =>
  Math.min(row.size_bytes, Math.floor(terms.capBytes * 0.9));

/** Transcodes one attachment's upload to fit the terms; answers the decision to record. */
async function transcode(
  ctx: DomainContext,
  row: AttachmentRow,
  kind: "image" | "video",
  terms: MediaTerms,
): Promise<DecisionRecord> {
  const hash = row.blob;
  if (!hash) return { decision: "rejected", deliveredSize: null, error: `Attachment ${row.filename} has no bytes` };
  try {
    if (kind === "image") {
      const fit = await ctx.blobs.withLocalFile(hash, (path) => fitImage(path, terms.capBytes));
      // No sharp on this machine: recorded like video without ffmpeg, the send goes on.
      if (fit.fits === "unavailable")
        return { decision: "transcode_simulated", deliveredSize: simulatedSize(row, terms) };
      if (!fit.fits)
        return { decision: "rejected", deliveredSize: null, error: cannotFit(row, terms, fit.smallestBytes) };
      const copy = {
        hash: await ctx.blobs.put(fit.image.bytes),
        size: fit.image.bytes.length,
        mimeType: "image/jpeg",
        filename: withExtension(row.filename, "jpg"),
      };
      return { decision: "transcoded", transcoder: "sharp", deliveredSize: copy.size, copy };
    }
    const fit = await ctx.blobs.withLocalFile(hash, (path) =>
      fitVideo(ctx, path, terms.capBytes, row.media_duration_seconds),
    );
    switch (fit.kind) {
      case "simulated":
        return { decision: "transcode_simulated", deliveredSize: simulatedSize(row, terms) };
      case "too_large":
        return { decision: "rejected", deliveredSize: null, error: cannotFit(row, terms, fit.smallestBytes) };
      case "failed":
        return { decision: "rejected", deliveredSize: null, error: `Attachment ${row.filename}: ${fit.error}` };
      case "transcoded": {
        const copy = {
          hash: await ctx.blobs.importFile(fit.path),
          size: fit.size,
          mimeType: "video/mp4",
          filename: withExtension(row.filename, "mp4"),
        };
        return { decision: "transcoded", transcoder: "ffmpeg", deliveredSize: copy.size, copy };
      }
    }
  } catch (error) {
    // A file whose bytes looked like an image or video but do not decode.
    return {
      decision: "rejected",
      deliveredSize: null,
      error: `Attachment ${row.filename} could not be transcoded: ${(error as Error).message}`,
    };
  }
}

/**
 * Job `attachments.transcode`: makes the smaller copies a message's media needs on its channel,
 * records each decision, then schedules the follow-up (the send attempt) at once. It is async:
 * sharp and ffmpeg take real time, and no transaction may wait on them. On a manual clock it
 * runs inside `clock advance` at the attempt's virtual time.
 */
export const runTranscode: JobHandler = async (ctx, job: TranscodeJob, run) => {
  for (const listed of listAttachmentsOfMessage(ctx.db, job.message_id)) {
    if (decidedOn(deliveryOf(listed), job.terms)) continue;
    const verdict = capVerdict(listed, job.terms);
    // The attempt itself records the decisions that need no work.
    if (verdict.decision !== "transcode") continue;
    const record = await transcode(ctx, listed, verdict.kind, job.terms);
    if (run.signal.aborted) return;
    const row = findAttachmentById(ctx.db, listed.id);
    if (row) ctx.db.transaction(() => recordDecision(ctx, row, job.terms, record));
  }
  if (run.signal.aborted) return;
  // Handed back as the job's completion: written with its removal, so that a settle waiting for
  // this job sees the follow-up it schedules (scheduler/settling.ts).
  return () => {
    scheduleJob(ctx, job.then.kind, job.then.payload, ctx.clock.now());
  };
};
