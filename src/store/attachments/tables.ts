/** Rows of the attachments table: metadata only; the bytes live in the blob store by hash. */

/** An uploaded (or presigned, or inbound) file and what happened to it when its message went out. */
export interface AttachmentsTable {
  id: string;
  account_id: string;
  /** The message that claimed it (outbound) or brought it (inbound); null until then. */
  message_id: string | null;
  /** Its place in the message's `attachments`. */
  position: number;
  /** `pending_upload` until a presigned PUT lands; `uploaded` once the bytes are stored. */
  status: "pending_upload" | "uploaded";
  /** Sanitised: no path parts, no control characters, bounded length. */
  filename: string;
  /** Sniffed from the bytes (the presigned content type until the PUT lands). */
  mime_type: string;
  /** Bytes of the upload (0 until a presigned PUT lands). */
  size_bytes: number;
  /** SHA-256 of the uploaded bytes in the blob store; null until they land. */
  blob: string | null;
  /** Presigned uploads: the content type the PUT must carry, and when its URL expires. */
  upload_content_type: string | null;
  upload_expires_at: number | null;
  is_voice_memo: number;
  /** Playback length read from audio and video files at upload (null for other files, or unreadable). */
  media_duration_seconds: number | null;
  /** What the API shows: set where the channel reports it (WhatsApp audio and video inbound). */
  duration_seconds: number | null;
  /** The copy that went out when it differs from the upload (transcoded): hash, size, type, name. */
  delivered_blob: string | null;
  delivered_size_bytes: number | null;
  delivered_mime_type: string | null;
  delivered_filename: string | null;
  /** JSON of the decision made when the message left the queue (channel, cap, outcome); null before. */
  delivery: string | null;
  created_at: number;
  updated_at: number;
}

/** Every table of the attachments, as kysely sees it. */
export interface AttachmentTables {
  attachments: AttachmentsTable;
}
