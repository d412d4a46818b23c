import type { JsonObject } from "../../contract/common.js";
import type { Readable } from "node:stream";
import { presignBody, type PresignResult } from "../../contract/attachments.js";
import { AppError, invalidRequest, invalidState } from "../../lib/app-error.js";
import { sanitizeFilename } from "../../lib/filename.js";
import { normalizeMediaType } from "../../lib/media-type.js";
import { isUuid } from "../../lib/ids.js";
import { parseInput } from "../../lib/validation.js";
import {
  completeUpload,
  findAttachmentById,
  insertAttachments,
  type AttachmentRow,
  type StagedBlob,
  type AttachmentsTable,
} from "../../store/attachments/index.js";
import type { DomainContext } from "../core/index.js";
import { checkUploadSignature, signUploadUrl, type SignedQuery } from "./signing.js";
import { probeDuration, sniffType } from "./sniff.js";
import { toAttachment, type AttachmentResource } from "./views.js";

/** Files per upload request (spec section 8). */
export const MAX_FILES_PER_UPLOAD = 10;

/** One part of a multipart upload as the server hands it over: a file's stream, or a text field. */
export interface UploadPart {
  field: string;
  filename?: string;
  /** The file's bytes; absent for a text field. */
  stream?: Readable;
}

const MiB = 1024 * 1024;
const tooLarge = (ctx: DomainContext, what: string) =>
  new AppError(
    "payload_too_large",
    413,
    `${what}: larger than the ${Math.round(ctx.settings.maxUploadBytes / MiB)} MiB limit per file`,
  );

/** What an upload becomes once its bytes are stored: the type read from them, the length of media. */
async function describe(ctx: DomainContext, staged: StagedBlob, filename: string | undefined) {
  const type = await sniffType(staged.head);
  await staged.commit();
  return {
    filename: sanitizeFilename(filename, `attachment.${type.extension}`),
    mime_type: type.mime,
    size_bytes: staged.size,
    blob: staged.hash,
    media_duration_seconds: await probeDuration(ctx, staged.hash, type.mime),
  };
}

function newRow(
  ctx: DomainContext,
  accountId: string,
  fields: Pick<
    AttachmentsTable,
    | "filename"
    | "mime_type"
    | "size_bytes"
    | "blob"
    | "status"
    | "media_duration_seconds"
    | "upload_content_type"
    | "upload_expires_at"
  >,
): AttachmentsTable {
  const now = ctx.clock.now();
  return {
    id: ctx.ids.uuid(),
    account_id: accountId,
    message_id: null,
    position: 0,
    is_voice_memo: 0,
    duration_seconds: null,
    delivered_blob: null,
    delivered_size_bytes: null,
    delivered_mime_type: null,
    delivered_filename: null,
    delivery: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/**
 * POST /v1/attachments (spec 4.2): stores each `file` part as it streams in (never whole in
 * memory), then creates the attachments in one transaction, in part order. Any refusal (more
 * than 10 files, a file over the limit, an empty file, another field) changes nothing: staged
 * bytes are dropped before any of them becomes visible.
 */
export async function uploadAttachments(
  ctx: DomainContext,
  accountId: string,
  parts: AsyncIterable<UploadPart>,
): Promise<AttachmentResource[]> {
  const staged: { blob: StagedBlob; filename: string | undefined }[] = [];
  try {
    for await (const part of parts) {
      if (part.field !== "file" || !part.stream)
        throw invalidRequest(`${part.field}: unknown form field; send each file as a part named "file"`);
      if (staged.length === MAX_FILES_PER_UPLOAD)
        throw invalidRequest(`file: at most ${MAX_FILES_PER_UPLOAD} files per request`);
      const name = `file[${staged.length}]`;
      const result = await ctx.blobs.stage(part.stream, ctx.settings.maxUploadBytes);
      if (result.tooLarge) throw tooLarge(ctx, name);
      staged.push({ blob: result, filename: part.filename });
      if (result.size === 0) throw invalidRequest(`${name}: ${part.filename ?? "the file"} is empty`);
    }
    if (staged.length === 0)
      throw invalidRequest('file: at least one file part is required (multipart/form-data, field "file")');
  } catch (error) {
    await Promise.all(staged.map((s) => s.blob.discard()));
    throw error;
  }
  const rows: AttachmentsTable[] = [];
  try {
    for (const { blob, filename } of staged) {
      rows.push(
        newRow(ctx, accountId, {
          ...(await describe(ctx, blob, filename)),
          status: "uploaded",
          upload_content_type: null,
          upload_expires_at: null,
        }),
      );
    }
  } finally {
    // After a failure midway (a full disk), the files not yet committed are dropped; committed ones stay by hash.
    if (rows.length < staged.length) await Promise.all(staged.map((s) => s.blob.discard()));
  }
  ctx.db.transaction(() => insertAttachments(ctx.db, rows));
  return rows.map((row) => toAttachment(ctx, row));
}

/**
 * POST /v1/attachments/presign (spec 4.2): an attachment waiting for its bytes, and a signed URL
 * to PUT them to without a key. The URL is bound to the content type and expires on the clock.
 */
export function presignUpload(ctx: DomainContext, accountId: string, input: JsonObject): PresignResult {
  const body = parseInput(presignBody, input);
  // The contract checked its shape; the PUT must send the same type, in any spelling of it.
  const { essence, full: contentType } = normalizeMediaType(body.content_type) ?? { essence: "", full: "" };
  const row = newRow(ctx, accountId, {
    filename: sanitizeFilename(body.filename, "attachment"),
    // Shown until the PUT lands; then the type sniffed from the bytes replaces it.
    mime_type: essence,
    size_bytes: 0,
    blob: null,
    status: "pending_upload",
    media_duration_seconds: null,
    upload_content_type: contentType,
    upload_expires_at: null,
  });
  const signed = signUploadUrl(ctx, row.id, contentType);
  row.upload_expires_at = signed.expiresMs;
  ctx.db.transaction(() => insertAttachments(ctx.db, [row]));
  return {
    id: row.id,
    upload_url: signed.url,
    method: "PUT",
    headers: { "content-type": contentType },
    expires_at: signed.expiresAt,
  };
}

const forbidden = (message: string) => new AppError("forbidden", 403, message);

/** The attachment a presigned PUT is for, once its signature, expiry and content type hold. */
function uploadTarget(ctx: DomainContext, id: string, contentType: string | null, query: SignedQuery): AttachmentRow {
  const row = isUuid(id) ? findAttachmentById(ctx.db, id.toLowerCase()) : undefined;
  // Without the row there is nothing to check the signature against: the same answer as a bad one.
  const problem = row?.upload_content_type
    ? checkUploadSignature(ctx, row.id, row.upload_content_type, query)
    : "mismatch";
  if (problem === "expired")
    throw forbidden("This upload URL has expired: presign again (POST /v1/attachments/presign)");
  if (problem || !row?.upload_content_type)
    throw forbidden("The upload URL's signature does not match: use upload_url exactly as the presign returned it");
  const sent = normalizeMediaType(contentType ?? "")?.full ?? (contentType ?? "").trim().toLowerCase();
  if (sent !== row.upload_content_type) {
    throw invalidRequest(
      `content-type: this upload URL was signed for ${row.upload_content_type} (got ${sent || "none"}); send the presign's headers`,
    );
  }
  if (row.status !== "pending_upload")
    throw invalidState(`Attachment ${row.id} was already uploaded; a presigned URL takes one PUT`);
  return row;
}

/**
 * PUT {upload_url} (spec 4.2): no key, the signature is the credential.
 * A bad or expired signature is 403, another content type 400, a second PUT 409, over the limit
 * 413. The bytes stream to the blob store; the attachment can be sent from then on.
 */
export async function receivePresignedUpload(
  ctx: DomainContext,
  id: string,
  contentType: string | null,
  query: SignedQuery,
  body: Readable,
): Promise<AttachmentResource> {
  const row = uploadTarget(ctx, id, contentType, query);
  const staged = await ctx.blobs.stage(body, ctx.settings.maxUploadBytes);
  if (staged.tooLarge) throw tooLarge(ctx, "body");
  if (staged.size === 0) {
    await staged.discard();
    throw invalidRequest("body: the upload is empty");
  }
  const fields = await describe(ctx, staged, row.filename);
  const landed = ctx.db.transaction(() =>
    completeUpload(ctx.db, row.id, {
      status: "uploaded",
      mime_type: fields.mime_type,
      size_bytes: fields.size_bytes,
      blob: fields.blob,
      media_duration_seconds: fields.media_duration_seconds,
      updated_at: ctx.clock.now(),
    }),
  );
  // A second PUT that raced this one to the row: the first one landed, this one changes nothing.
  if (!landed) throw invalidState(`Attachment ${row.id} was already uploaded; a presigned URL takes one PUT`);
  const updated = findAttachmentById(ctx.db, row.id);
  if (!updated) throw new Error(`Attachment ${row.id} vanished after its upload`);
  return toAttachment(ctx, updated);
}
