/** An inclusive byte range of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Reads a `Range` header for a file of `size` bytes (RFC 9110 section 14): one range of
 * `bytes=a-b`, `bytes=a-` or `bytes=-n`. Undefined means "send the whole file" (no header, a
 * syntax we do not serve such as several ranges: the RFC lets a server ignore those);
 * `unsatisfiable` is a range that starts past the end, or a suffix of 0 bytes (416).
 */
export function parseByteRange(header: string | null, size: number): ByteRange | "unsatisfiable" | undefined {
  if (!header) return undefined;
  // Any number of digits is a valid range (a suffix longer than the file is the whole file);
  // past 30 the header is not one a client means.
  const match = /^bytes=(\d{0,30})-(\d{0,30})$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size - 1 : Math.min(Number(last), size - 1) };
}
