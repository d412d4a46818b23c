import { ConnectionError, HttpClient } from "../../client/http.js";
import { openApiDocumentOf } from "../../runtime/openapi.js";
import { findSandbox, type ConnectionFlags } from "../connection.js";
import type { HOSTS } from "../choices.js";
import type { Output } from "../output.js";
import { DEFAULT_OPENAPI_HOST } from "../defaults.js";

// A sandbox that takes longer than this to answer is treated as not there.
const FETCH_TIMEOUT_MS = 5_000;

/** The document a running host serves at /openapi.json, or why it could not be had. */
async function servedDocument(url: string): Promise<Record<string, unknown> | string> {
  try {
    const response = await new HttpClient({ baseUrl: url }).fetchUrl(`${url.replace(/\/+$/, "")}/openapi.json`, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) return `it answered ${response.status}`;
    const document = (await response.json()) as Record<string, unknown>;
    return typeof document.openapi === "string" ? document : "its answer is not an OpenAPI document";
  } catch (error) {
    // Unreachable, too slow, cut off or not JSON: any of them leaves the generated document.
    return error instanceof ConnectionError
      ? "it could not be reached"
      : `it could not be read (${(error as Error).message})`;
  }
}

/**
 * `msgctl openapi [--host messaging|otp]`: prints that host's OpenAPI 3.1 document. When the
 * host is known (flag, MSGCTL_* variable or state file) the document it serves is printed, with
 * its own address as the server; without a sandbox, the document this msgctl generates (servers:
 * the default ports), so the command also works offline.
 */
export async function openapi(
  options: ConnectionFlags & { host?: (typeof HOSTS)[number] },
  out: Output,
): Promise<Record<string, unknown>> {
  const host = options.host ?? DEFAULT_OPENAPI_HOST;
  const sandbox = findSandbox(options);
  const url = host === "otp" ? sandbox.otpUrl : sandbox.baseUrl;
  let document = url === undefined ? undefined : await servedDocument(url);
  if (typeof document === "string") {
    out.note(out.color.yellow(`Printing the generated document instead of the one at ${url}: ${document}.`));
    document = undefined;
  }
  document ??= await openApiDocumentOf(host);
  // The document is JSON whatever the output mode: it is what this command is for.
  out.line(JSON.stringify(document, null, 2));
  return document;
}
