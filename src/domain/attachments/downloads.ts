import type { Readable } from "node:stream";
import { AppError, invalidState, notFound } from "../../lib/app-error.js";
import { isUuid } from "../../lib/ids.js";
import { findAccountAttachment, findAttachmentById } from "../../store/attachments/index.js";
import type { DomainContext } from "../core/index.js";
import { checkDownloadSignature, type SignedQuery } from "./signing.js";
import { toAttachment, type AttachmentResource } from "./views.js";

/** GET /v1/attachments/:id (spec 4.2): the account's attachment with a fresh signed URL; 404 otherwise. */
export function getAttachment(ctx: DomainContext, accountId: string, id: string): AttachmentResource {
  const row = isUuid(id) ? findAccountAttachment(ctx.db, accountId, id.toLowerCase()) : undefined;
  if (!row) throw notFound(`Attachment ${id}`);
  return toAttachment(ctx, row);
}

/** What a signed download serves: the delivered copy once one was made, else the upload. */
export interface AttachmentDownload {
  filename: string;
  mimeType: string;
  size: number;
  /** The content hash: a strong ETag. */
  hash: string;
  /** The bytes `start`..`end` (inclusive), or all of them. */
  open(range?: { start: number; end: number }): Readable;
}

/**
 * GET {url} of an attachment: no key, the signature is the credential.
 * A tampered or expired URL is 403; an attachment whose presigned PUT has not landed is 409.
 */
export function openDownload(ctx: DomainContext, id: string, query: SignedQuery): AttachmentDownload {
  const problem = isUuid(id) ? checkDownloadSignature(ctx, id, query) : "malformed";
  if (problem === "expired") {
    throw new AppError(
      "forbidden",
      403,
      "This download URL has expired (download URLs last one hour): GET /v1/attachments/:id for a fresh one",
    );
  }
  if (problem)
    throw new AppError(
      "forbidden",
      403,
      "The download URL's signature does not match: use the attachment's url exactly as the API returned it",
    );
  const row = findAttachmentById(ctx.db, id.toLowerCase());
  if (!row) throw notFound(`Attachment ${id}`);
  const hash = row.delivered_blob ?? row.blob;
  if (row.status !== "uploaded" || !hash)
    throw invalidState(`Attachment ${id} has no bytes yet: its presigned PUT has not landed`);
  return {
    filename: row.delivered_filename ?? row.filename,
    mimeType: row.delivered_mime_type ?? row.mime_type,
    size: row.delivered_size_bytes ?? row.size_bytes,
    hash,
    open: (range) => ctx.blobs.read(hash, range),
  };
}
