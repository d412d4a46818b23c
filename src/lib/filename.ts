/** The longest filename kept, in characters (extension included). */
export const FILENAME_MAX = 200;

// C0 and C1 control characters, DEL, and the Unicode format characters that reorder or hide text
// (bidi overrides and isolates, zero-width marks): a name shown to people must read as it is.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A client's filename made safe to store, show and put in a header: the last path part only
 * (`../../etc/passwd` → `passwd`, `C:\x\y.png` → `y.png`), no control characters, no quotes or
 * reserved characters, no leading dots or spaces, at most FILENAME_MAX characters with the
 * extension kept. Empty results become `fallback`.
 */
export function sanitizeFilename(raw: string | undefined, fallback: string): string {
  const base = (raw ?? "").split(/[/\\]/).pop() ?? "";
  let name = base
    .normalize("NFC")
    .replace(/[\t\n\v\f\r]/g, " ")
    .replace(CONTROL, "")
    .replace(/["*:<>?|]/g, "_")
    .replace(/\s+/g, " ")
    .replace(/^[\s.]+/, "")
    .replace(/[\s.]+$/, "");
  if (!name) return fallback;
  const chars = [...name];
  if (chars.length > FILENAME_MAX) {
    const dot = name.lastIndexOf(".");
    const extension = dot > 0 && name.length - dot <= 16 ? [...name.slice(dot)] : [];
    name = chars.slice(0, FILENAME_MAX - extension.length).join("") + extension.join("");
  }
  return name;
}

/** The name with its extension replaced (a transcoded copy: `photo.png` → `photo.jpg`). */
export function withExtension(name: string, extension: string): string {
  const dot = name.lastIndexOf(".");
  return `${dot > 0 ? name.slice(0, dot) : name}.${extension}`;
}

/** A `Content-Disposition` value carrying the filename for old and new clients (RFC 6266). */
export function contentDisposition(kind: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
