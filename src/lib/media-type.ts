/**
 * Media types as a presign names them (`image/png`, `text/plain; charset=utf-8`): RFC 9110
 * section 8.3.1, a type, a subtype and parameters whose values are tokens or quoted strings.
 */

const TOKEN = "[a-z0-9!#$%&'*+.^_`|~-]+";
const PARAMETER = `\\s*;\\s*${TOKEN}=(?:${TOKEN}|"(?:[^"\\\\]|\\\\.)*")`;

/** A media type with any parameters (bounded by its caller: presign allows 255 characters). */
export const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:${PARAMETER})*\\s*$`, "i");

/**
 * One spelling of a media type: the type, subtype and parameter names lower-cased (they are
 * case-insensitive), values as written, `; ` between. Undefined when it is not one.
 */
export function normalizeMediaType(input: string): { essence: string; full: string } | undefined {
  const text = input.trim();
  if (!MEDIA_TYPE.test(text)) return undefined;
  const [essence = "", ...parameters] = splitParameters(text);
  const normalized = parameters.map((parameter) => {
    const equals = parameter.indexOf("=");
    return `${parameter.slice(0, equals).trim().toLowerCase()}=${parameter.slice(equals + 1).trim()}`;
  });
  const type = essence.trim().toLowerCase();
  return { essence: type, full: [type, ...normalized].join("; ") };
}

/** Splits on the semicolons outside quoted strings. */
function splitParameters(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === "\\") {
      current += char + (text[++i] ?? "");
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === ";" && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}
