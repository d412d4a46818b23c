import type { AttachmentDelivery, AttachmentResource } from "../../contract/attachments.js";
import { isoTime } from "../../lib/clock.js";
import type { AttachmentRow } from "../../store/attachments/index.js";
import type { DomainContext } from "../core/index.js";
import { signDownloadUrl } from "./signing.js";

export type { AttachmentDelivery, AttachmentResource };

/** The decision recorded on a row, or null before its message left the queue. */
export function deliveryOf(row: AttachmentRow): AttachmentDelivery | null {
  return row.delivery === null ? null : (JSON.parse(row.delivery) as AttachmentDelivery);
}

/**
 * An attachment row as the API shows it, with a fresh signed URL. Once a smaller copy went out,
 * `filename`, `mime_type`, `size_bytes` and `url` are the delivered copy's
 * and `original_size_bytes` keeps the upload's size: `size_bytes` is always what `url` serves.
 */
export function toAttachment(ctx: DomainContext, row: AttachmentRow): AttachmentResource {
  const { url, expiresAt } = signDownloadUrl(ctx, row.id);
  return {
    id: row.id,
    filename: row.delivered_filename ?? row.filename,
    mime_type: row.delivered_mime_type ?? row.mime_type,
    size_bytes: row.delivered_size_bytes ?? row.size_bytes,
    is_voice_memo: row.is_voice_memo === 1,
    duration_seconds: row.duration_seconds,
    url,
    message_id: row.message_id,
    created_at: isoTime(row.created_at),
    status: row.status,
    url_expires_at: expiresAt,
    original_size_bytes: row.size_bytes,
    delivery: deliveryOf(row),
  };
}
