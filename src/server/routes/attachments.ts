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
import { contentDisposition } from "../../lib/filename.js";
import { parseByteRange } from "../byte-range.js";
import { drainingOnError, multipartParts, requestStream } from "../multipart.js";
import { ok, type ApiRequest, type Route } from "../route.js";

const signedQuery = (query: URLSearchParams) => ({ expires: query.get("expires"), signature: query.get("signature") });

/** GET {url}: the bytes, with their type, length, filename, and one byte range when asked (players seek). */
function download({ ctx, event, params, query, requestId }: ApiRequest): Response {
  const file = openDownload(ctx, params.id ?? "", signedQuery(query));
  const range = parseByteRange(event.req.headers.get("range"), file.size);
  if (range === "unsatisfiable") {
    throw new AppError("range_not_satisfiable", 416, `Range ${event.req.headers.get("range")} starts past the end of the file (${file.size} bytes)`, {
      "content-range": `bytes */${file.size}`,
    });
  }
  const headers: Record<string, string> = {
    "content-type": file.mimeType,
    "content-length": String(range ? range.end - range.start + 1 : file.size),
    "content-disposition": contentDisposition("inline", file.filename),
    "accept-ranges": "bytes",
    etag: `"${file.hash}"`,
    // The URL itself expires; a browser may keep what it fetched a little while.
    "cache-control": "private, max-age=300",
    "x-request-id": requestId,
  };
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${file.size}`;
  // HEAD: the headers only, without opening the file.
  const body = event.req.method === "HEAD" ? null : (Readable.toWeb(file.open(range)) as unknown as globalThis.ReadableStream);
  return new Response(body, { status: range ? 206 : 200, headers });
}

/** Attachments (spec 4.2), and the two signed URLs that need no key (SANDBOX.md section 5). */
export const attachmentRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/attachments",
    // A request may carry text fields too; the domain refuses them by name. 2 × the files bounds the parts.
    handler: async ({ ctx, account, event }) =>
      ok(await drainingOnError(event, () => uploadAttachments(ctx, account.id, multipartParts(event, 2 * MAX_FILES_PER_UPLOAD + 1))), 201),
  },
  {
    method: "POST",
    path: "/v1/attachments/presign",
    handler: async ({ ctx, account, json }) => ok(presignUpload(ctx, account.id, await json()), 201),
  },
  { method: "GET", path: "/v1/attachments/:id", handler: ({ ctx, account, params }) => ok(getAttachment(ctx, account.id, params.id ?? "")) },
  {
    method: "PUT",
    path: "/uploads/:id",
    auth: false,
    handler: async ({ ctx, event, params, query, header }) =>
      ok(await drainingOnError(event, () => receivePresignedUpload(ctx, params.id ?? "", header("content-type"), signedQuery(query), requestStream(event)))),
  },
  { method: "GET", path: "/media/:id", auth: false, handler: download },
  // Players and the inspector ask for the size first.
  { method: "HEAD", path: "/media/:id", auth: false, handler: download },
];
