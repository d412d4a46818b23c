import { expect } from "vitest";
import type { TestSandbox } from "./sandbox.js";
import { KEY } from "./sandbox.js";

/** A file to upload in a test. */
export interface TestFile {
  name?: string;
  bytes: Uint8Array | string;
  /** The part's declared type (never trusted: the type is sniffed). */
  type?: string;
}

/**
 * A raw request to the messaging host, in-process or over the socket as the suite runs (multipart
 * bodies, downloads, presigned PUTs: what `t.api` does not send or parse).
 */
export function raw(t: TestSandbox, path: string, init: RequestInit = {}): Promise<Response> {
  const { sandbox } = t;
  const listening = !sandbox.baseUrl.endsWith(".invalid");
  const relative = path.startsWith("http") ? new URL(path).pathname + new URL(path).search : path;
  return listening
    ? fetch(sandbox.baseUrl + relative, init)
    : Promise.resolve(sandbox.messagingApp.request(relative, init));
}

/** A multipart body with a `file` part per file (and extra fields when given). */
export function formOf(files: TestFile[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    const bytes = typeof file.bytes === "string" ? new TextEncoder().encode(file.bytes) : new Uint8Array(file.bytes);
    form.append("file", new Blob([bytes], { type: file.type ?? "application/octet-stream" }), file.name ?? "file.bin");
  }
  return form;
}

/** POST /v1/attachments with these files; answers status and parsed body. */
export async function uploadRaw(
  t: TestSandbox,
  files: TestFile[],
  options: { key?: string; fields?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await raw(t, "/v1/attachments", {
    method: "POST",
    headers: { authorization: `Bearer ${options.key ?? KEY}` },
    body: formOf(files, options.fields),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Uploads files that must be accepted (201); returns the Attachments. */
export async function upload(t: TestSandbox, ...files: TestFile[]): Promise<any[]> {
  const res = await uploadRaw(t, files);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** The path and query of an absolute URL (to call it in-process). */
export const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

/** A URL with one query parameter replaced. */
export function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

/** The 8-byte PNG signature followed by filler: sniffed as image/png, not a decodable image. */
export const PNG_MAGIC = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

/** A tiny PDF header: sniffed as application/pdf. */
export const pdfBytes = (size: number) => {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(new TextEncoder().encode("%PDF-1.4\n"));
  return bytes;
};

/**
 * An MP4 of `size` bytes as far as sniffing goes (an `ftyp` box, then filler): enough for the
 * cap rules, which treat it as video. Not playable: ffmpeg would refuse it.
 */
export function mp4Bytes(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0, 0, 0, 0x18], 0);
  bytes.set(new TextEncoder().encode("ftypisom\0\0\0\0isommp41"), 4);
  return bytes;
}

/** A mono 16-bit PCM WAV of `seconds` of silence (music-metadata reads its duration). */
export function wavBytes(seconds: number, sampleRate = 8_000): Uint8Array {
  const data = Math.round(seconds * sampleRate) * 2;
  const buffer = Buffer.alloc(44 + data);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + data, 4);
  buffer.write("WAVEfmt ", 8, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(data, 40);
  return new Uint8Array(buffer);
}

/** The start of an Ogg Opus stream (what WhatsApp voice notes are): sniffed as audio/ogg; codecs=opus. */
export function oggOpusBytes(): Uint8Array {
  const bytes = new Uint8Array(200);
  bytes.set(new TextEncoder().encode("OggS"), 0);
  bytes[4] = 0;
  bytes[5] = 2;
  bytes.set(new TextEncoder().encode("OpusHead"), 28);
  return bytes;
}

/**
 * The start-of-frame marker of a JPEG, read from its bytes (0xffc0 baseline, 0xffc2 progressive…):
 * walks the segments after SOI until the first SOFn (0xffc0-0xffcf but DHT c4, JPG c8, DAC cc).
 */
export function jpegFrameMarker(bytes: Uint8Array): number {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error("not a JPEG: no SOI marker");
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`no marker at byte ${at}`);
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return 0xff00 | marker;
    }
    if (marker === 0xda) break; // start of scan before any frame: not a valid JPEG
    at += 2 + (((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
  }
  throw new Error("no start-of-frame marker");
}
