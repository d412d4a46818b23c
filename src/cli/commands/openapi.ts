import { openApiDocumentOf } from "../../runtime/openapi.js";
import type { Output } from "../output.js";
import { UsageError } from "../usage-error.js";

/** `msgctl openapi [--host messaging|otp]`: prints that host's OpenAPI 3.1 document (no sandbox needed). */
export async function openapi(options: { host?: string }, out: Output): Promise<Record<string, unknown>> {
  const host = options.host ?? "messaging";
  if (host !== "messaging" && host !== "otp") throw new UsageError(`--host must be messaging or otp (got ${host})`);
  const document = await openApiDocumentOf(host);
  // The document is JSON whatever the output mode: it is what this command is for.
  out.line(JSON.stringify(document, null, 2));
  return document;
}
