import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import {
  getAttachment,
  MAX_FILES_PER_UPLOAD,
  openDownload,
  presignUpload,
  receivePresignedUpload,
  uploadAttachments,
} from "../../domain/attachments/index.js";
import { AppError } from "../../lib/app-error.js";
import { clip } from "../../lib/bounded-input.js";
import { contentDisposition } from "../../lib/filename.js";
import { parseByteRange } from "../byte-range.js";
import { drainingOnError, multipartParts, requestStream } from "../multipart.js";
import {
  attachmentResource,
  presignBody,
  presignResult,
  signedUrlQuery,
  uploadedAttachments,
} from "../../contract/attachments.js";
import { ok, type ApiRequest, type Route, type RouteDoc } from "../route.js";

const TAG = "Attachments";
const id = { id: "the attachment's id" };
const downloadDoc = (summary: string): RouteDoc => ({
  tag: TAG,
  summary,
  description:
    "The URL of an Attachment's `url`; no key: the signature is the credential (valid one hour on the clock). One byte range per request.",
  params: id,
  query: signedUrlQuery,
  headers: {
    Range: "one byte range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`: answered 206",
    "If-Range": "the ETag the range was read against: another one gets the whole file, 200",
  },
  responses: {
    // The attachment's own type (sniffed from its bytes), not one fixed type.
    200: { description: "the bytes, with their type, length and filename", raw: "*/*" as const },
    206: { description: "the range asked for", raw: "*/*" as const },
  },
  errors: [403, 409, 416],
  errorCodes: { 409: { invalid_state: "a presigned attachment whose PUT has not landed" } },
});

const signedQuery = (query: URLSearchParams) => ({ expires: query.get("expires"), signature: query.get("signature") });

/** GET {url}: the bytes, with their type, length, filename, and one byte range when asked (players seek). */
function download({ ctx, event, params, query, requestId }: ApiRequest): Response {
  const file = openDownload(ctx, params.id ?? "", signedQuery(query));
  const etag = `"${file.hash}"`;
  // If-Range (RFC 9110 section 13.1.5): a range read against other bytes (a transcode replaces
  // them) gets the whole file. A date never matches: there is no Last-Modified to compare.
  const ifRange = event.req.headers.get("if-range");
  const range =
    ifRange === null || ifRange.trim() === etag ? parseByteRange(event.req.headers.get("range"), file.size) : undefined;
  if (range === "unsatisfiable") {
    throw new AppError(
      "range_not_satisfiable",
      416,
      `Range ${clip(event.req.headers.get("range") ?? "", 100)} is not satisfiable: the file has ${file.size} bytes`,
      {
        "content-range": `bytes */${file.size}`,
      },
    );
  }
  const headers: Record<string, string> = {
    "content-type": file.mimeType,
    "content-length": String(range ? range.end - range.start + 1 : file.size),
    "content-disposition": contentDisposition("inline", file.filename),
    "accept-ranges": "bytes",
    etag,
    // The URL itself expires; a browser may keep what it fetched a little while.
    "cache-control": "private, max-age=300",
    "x-request-id": requestId,
  };
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${file.size}`;
  // HEAD: the headers only, without opening the file.
  const body =
    event.req.method === "HEAD" ? null : (Readable.toWeb(file.open(range)) as unknown as globalThis.ReadableStream);
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** Attachments (spec 4.2), and the two signed URLs that need no key. */
export const attachmentRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/attachments",
    doc: {
      tag: TAG,
      summary: "Upload attachments",
      description:
        "multipart/form-data, one or more `file` parts (at most 10), each at most 100 MiB; the type is sniffed from the bytes.",
      upload: "multipart",
      responses: { 201: { description: "the Attachments, in part order", schema: uploadedAttachments } },
    },
    // A request may carry text fields too; the domain refuses them by name. 2 × the files bounds the parts.
    handler: async ({ ctx, account, event }) =>
      ok(
        await drainingOnError(event, () =>
          uploadAttachments(ctx, account.id, multipartParts(event, 2 * MAX_FILES_PER_UPLOAD + 1)),
        ),
        201,
      ),
  },
  {
    method: "POST",
    path: "/v1/attachments/presign",
    requiresBody: { example: '{ "filename": "photo.png", "content_type": "image/png" }' },
    doc: {
      tag: TAG,
      summary: "Presign an upload",
      description:
        "Then PUT the bytes to `upload_url` with `method` and `headers`; until then the attachment cannot be sent.",
      body: presignBody,
      responses: { 201: { description: "the presign result", schema: presignResult } },
    },
    handler: ({ ctx, account, body }) => ok(presignUpload(ctx, account.id, body()), 201),
  },
  {
    method: "GET",
    path: "/v1/attachments/:id",
    doc: {
      tag: TAG,
      summary: "Get an attachment",
      description: "With a fresh signed `url`, valid about one hour.",
      params: id,
      responses: { 200: { description: "the Attachment", schema: attachmentResource } },
    },
    handler: ({ ctx, account, params }) => ok(getAttachment(ctx, account.id, params.id ?? "")),
  },
  {
    method: "PUT",
    path: "/uploads/:id",
    auth: false,
    doc: {
      tag: TAG,
      summary: "The presigned upload",
      description:
        "PUT the bytes with the presign's headers; no key: the signature is the credential (valid 15 minutes on the clock). Once only.",
      params: id,
      query: signedUrlQuery,
      upload: "bytes",
      responses: { 200: { description: "the Attachment, uploaded", schema: attachmentResource } },
      errors: [403, 409],
    },
    handler: async ({ ctx, event, params, query, header }) =>
      ok(
        await drainingOnError(event, () =>
          receivePresignedUpload(
            ctx,
            params.id ?? "",
            header("content-type"),
            signedQuery(query),
            requestStream(event),
          ),
        ),
      ),
  },
  { method: "GET", path: "/media/:id", auth: false, doc: downloadDoc("Download an attachment"), handler: download },
  // Players and the inspector ask for the size first.
  {
    method: "HEAD",
    path: "/media/:id",
    auth: false,
    doc: downloadDoc("An attachment's size and type"),
    handler: download,
  },
];
