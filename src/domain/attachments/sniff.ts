import type { DomainContext } from "../core/index.js";

/** A type read from the bytes, with the extension a file of that type usually has. */
export interface SniffedType {
  mime: string;
  extension: string;
}

/**
 * The MIME type of a file from its first bytes (file-type, loaded on first use so `serve` does
 * not pay for it at start). The client's declared type is never trusted (spec 4.2 leaves it to
 * us): bytes file-type does not know are `text/plain` when they are UTF-8 text without NULs,
 * else `application/octet-stream`. Core Audio files (iMessage voice memos), which file-type does
 * not know, are recognised by their `caff` magic.
 */
export async function sniffType(head: Buffer): Promise<SniffedType> {
  if (head.subarray(0, 4).toString("latin1") === "caff") return { mime: "audio/x-caf", extension: "caf" };
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(head);
  if (found) return { mime: found.mime, extension: found.ext };
  return isText(head)
    ? { mime: "text/plain", extension: "txt" }
    : { mime: "application/octet-stream", extension: "bin" };
}

function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  try {
    // `stream: true`: a character cut at the end of the head is not an error.
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The broad kind of a MIME type, as the cap rules and durations see it. */
export function mediaKind(mime: string): "image" | "video" | "audio" | "other" {
  const top = mime.split("/")[0];
  return top === "image" || top === "video" || top === "audio" ? top : "other";
}

/** The formats phones record voice notes in: Ogg Opus (WhatsApp), Core Audio (iMessage), AMR (MMS). */
export function isVoiceNoteFormat(mime: string): boolean {
  return mime === "audio/ogg; codecs=opus" || mime === "audio/x-caf" || mime === "audio/amr";
}

/**
 * The playback length of an audio or video blob in seconds, read with music-metadata (loaded on
 * first use); null for other files and for files it cannot read.
 */
export async function probeDuration(ctx: DomainContext, hash: string, mime: string): Promise<number | null> {
  const kind = mediaKind(mime);
  if (kind !== "audio" && kind !== "video") return null;
  try {
    const { parseFile } = await import("music-metadata");
    const metadata = await ctx.blobs.withLocalFile(hash, (path) =>
      parseFile(path, { duration: true, skipCovers: true }),
    );
    const seconds = metadata.format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) / 1000 : null;
  } catch {
    return null;
  }
}
