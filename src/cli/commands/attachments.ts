import { open, rm, type FileHandle } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ChalkInstance } from "chalk";
import { ConnectionError } from "../../client/http.js";
import type { AttachmentResource, PresignResult } from "../../contract/index.js";
import { connect, type ConnectionFlags } from "../connection.js";
import { details, table, type Output } from "../output.js";
import { openOutputPathAsync } from "../output-file.js";
import { formatSize, uploadFiles } from "./upload-files.js";

/** Key/value lines for one attachment. */
export function attachmentDetails(color: ChalkInstance, a: AttachmentResource): string[] {
  const entries: [string, unknown][] = [
    ["id", a.id],
    ["filename", a.filename],
    ["type", a.mime_type],
    [
      "size",
      `${formatSize(a.size_bytes)}${a.original_size_bytes !== a.size_bytes ? ` (uploaded ${formatSize(a.original_size_bytes)})` : ""}`,
    ],
    ["status", a.status],
    ["message", a.message_id],
  ];
  if (a.is_voice_memo) entries.push(["voice memo", "yes"]);
  if (a.duration_seconds !== null) entries.push(["duration", `${a.duration_seconds} s`]);
  if (a.delivery) {
    const d = a.delivery;
    entries.push([
      "delivery",
      `${d.decision} on ${d.channel} (cap ${formatSize(d.cap_bytes)}, ${d.media_quality})${d.error ? `: ${d.error}` : ""}`,
    ]);
  }
  entries.push(["url", a.url], ["url expires", a.url_expires_at], ["created", a.created_at]);
  return details(color, entries);
}

/** A table of attachments. */
export function attachmentsTable(color: ChalkInstance, list: AttachmentResource[]): string[] {
  return table(
    color,
    ["ID", "FILENAME", "TYPE", "SIZE"],
    list.map((a) => [a.id, a.filename, a.mime_type, formatSize(a.size_bytes)]),
  );
}

/** `msgctl attachments upload FILE…`: POST /v1/attachments, with progress on large uploads. */
export async function attachmentsUpload(
  paths: string[],
  options: ConnectionFlags,
  out: Output,
): Promise<AttachmentResource[]> {
  const attachments = await uploadFiles(connect(options), paths, out);
  out.result(attachments, (list) => attachmentsTable(out.color, list));
  return attachments;
}

/** A word safe in a POSIX shell as it is, else single-quoted. */
const shellQuote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The curl line that PUTs a file to a presigned URL with its headers. */
export function curlLine(presigned: PresignResult, file: string): string {
  const headers = Object.entries(presigned.headers).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)}`);
  return [
    "curl",
    "-X",
    "PUT",
    ...headers,
    "--data-binary",
    shellQuote(`@${file}`),
    shellQuote(presigned.upload_url),
  ].join(" ");
}

/** `msgctl attachments presign --filename F --content-type T`: prints the upload URL and the ready-made curl line. */
export async function attachmentsPresign(
  options: ConnectionFlags & { filename: string; contentType: string },
  out: Output,
): Promise<PresignResult> {
  const presigned = await connect(options).attachments.presign({
    filename: options.filename,
    content_type: options.contentType,
  });
  out.result(presigned, (p) => [
    ...details(out.color, [
      ["id", p.id],
      ["upload url", p.upload_url],
      ["method", p.method],
      [
        "headers",
        Object.entries(p.headers)
          .map(([name, value]) => `${name}: ${value}`)
          .join(", "),
      ],
      ["expires", p.expires_at],
    ]),
    "",
    out.color.dim("Upload the bytes (no key needed):"),
    curlLine(p, options.filename),
  ]);
  return presigned;
}

/** `msgctl attachments get ID`: GET /v1/attachments/:id (with a fresh signed url). */
export async function attachmentsGet(id: string, options: ConnectionFlags, out: Output): Promise<AttachmentResource> {
  const attachment = await connect(options).attachments.get(id);
  out.result(attachment, (a) => attachmentDetails(out.color, a));
  return attachment;
}

/** `msgctl attachments download ID [-o FILE]`: the bytes through the signed url, to FILE (default: its filename here). */
export async function attachmentsDownload(
  id: string,
  options: ConnectionFlags & { output?: string },
  out: Output,
): Promise<AttachmentResource> {
  const client = connect(options);
  const attachment = await client.attachments.get(id);
  const response = await client.attachments.download(attachment);
  const target = options.output ?? attachment.filename;
  let file: FileHandle;
  try {
    file = await openOutputPathAsync(target, options.output === undefined ? undefined : "-o", () => open(target, "w"));
  } catch (error) {
    await response.body?.cancel();
    throw error;
  }
  try {
    await pipeline(
      Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>),
      file.createWriteStream(),
    );
  } catch (error) {
    // The bytes stopped coming (the sandbox stopped): what was saved is not the file.
    await rm(target, { force: true });
    throw (error as Error)?.name === "TypeError"
      ? new ConnectionError(
          new URL(response.url || attachment.url).origin,
          new Error("the sandbox went away while sending the file"),
        )
      : error;
  }
  out.result(attachment, (a) => [`Saved ${target} (${formatSize(a.size_bytes)}, ${a.mime_type})`]);
  return attachment;
}
