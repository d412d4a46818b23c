import { z } from "zod";
import { channel, timestamp, uuid } from "./common.js";
import { MEDIA_TYPE } from "../lib/media-type.js";

/** What happened to an attachment when its message left the queue. */
export const MEDIA_DECISIONS = ["unchanged", "transcoded", "transcode_simulated", "rejected"] as const;
/** One of the media decisions. */
export type MediaDecision = (typeof MEDIA_DECISIONS)[number];

/** The decision made for an attachment on the channel its message went out on. */
export const attachmentDelivery = z
  .object({
    channel,
    cap_bytes: z.number().int().meta({ description: "the channel's media cap" }),
    media_quality: z.enum(["fit", "original"]).meta({ description: "as applied: WhatsApp always fits" }),
    decision: z.enum(MEDIA_DECISIONS).meta({
      description:
        "unchanged: at or under the cap; transcoded: a smaller copy was made and is what `url` serves; " +
        "transcode_simulated: over the cap with no transcoder at hand (video without ffmpeg; images where sharp cannot load), recorded as fitted, no copy made; " +
        "rejected: over the cap and not transcodable (or media_quality original): the message failed",
    }),
    transcoder: z.enum(["sharp", "ffmpeg"]).nullable(),
    original_size_bytes: z.number().int(),
    original_mime_type: z.string(),
    delivered_size_bytes: z
      .number()
      .int()
      .nullable()
      .meta({ description: "bytes that went out (the simulated size for transcode_simulated); null when rejected" }),
    error: z.string().nullable().meta({ description: "rejected: why" }),
  })
  .meta({ description: "the media decision made when the message left the queue; null before" });
/** The media decision made when an attachment's message left the queue. */
export type AttachmentDelivery = z.output<typeof attachmentDelivery>;

/** The Attachment resource (spec section 2), with msgctl's documented extra fields. */
export const attachmentResource = z
  .object({
    id: uuid,
    filename: z
      .string()
      .meta({ description: "sanitised: no path parts or control characters, at most 200 characters" }),
    mime_type: z.string().meta({ description: "sniffed from the bytes, never taken from the client" }),
    size_bytes: z.number().int().meta({ description: "bytes `url` serves: the delivered copy once one was made" }),
    is_voice_memo: z.boolean(),
    duration_seconds: z.number().nullable().meta({ description: "WhatsApp audio and video inbound; null otherwise" }),
    url: z.string().meta({ description: "signed download URL, no key needed, valid one hour" }),
    message_id: uuid.nullable(),
    created_at: timestamp,
    status: z.enum(["uploaded", "pending_upload"]).meta({ description: "pending_upload until a presigned PUT lands" }),
    url_expires_at: timestamp,
    original_size_bytes: z
      .number()
      .int()
      .meta({ description: "bytes uploaded; differs from size_bytes once a smaller copy went out" }),
    delivery: attachmentDelivery.nullable(),
  })
  .meta({ id: "Attachment", description: "An attachment (spec section 2), with msgctl's documented extra fields" });
/** The Attachment resource (spec section 2). */
export type AttachmentResource = z.output<typeof attachmentResource>;

/** The `data` of POST /v1/attachments: the Attachments in part order (spec 4.2). */
export const uploadedAttachments = z.array(attachmentResource);

/** POST /v1/attachments/presign (spec 4.2). */
export const presignBody = z.strictObject({
  filename: z.string().min(1, "must not be empty").max(1_024, "must be at most 1024 characters"),
  content_type: z
    .string()
    .max(255, "must be at most 255 characters")
    .regex(MEDIA_TYPE, "must be a media type such as image/png or text/plain; charset=utf-8")
    .meta({ example: "image/png" }),
});
/** The body of a presign, as a client sends it. */
export type PresignInput = z.input<typeof presignBody>;

/** The presign result (spec section 2), with `expires_at` of the upload URL. */
export const presignResult = z.object({
  id: uuid,
  upload_url: z.string().meta({ description: "PUT the bytes here, no key needed; signed, valid 15 minutes" }),
  method: z.literal("PUT"),
  headers: z.record(z.string(), z.string()).meta({ description: "send these with the PUT; includes content-type" }),
  expires_at: timestamp,
});
/** The presign result (spec section 2). */
export type PresignResult = z.output<typeof presignResult>;

/** The query of a signed URL (a presigned PUT or a download): the signature is the credential. */
export const signedUrlQuery = z.object({
  expires: z.string().max(20).meta({ description: "expiry, Unix seconds on the sandbox clock" }),
  signature: z.string().max(128).meta({ description: "HMAC of the path and expiry; a tampered or expired URL is 403" }),
});
