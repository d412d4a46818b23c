import { readFileSync } from "node:fs";
import { diagnoseSignature, type SignatureDiagnosis } from "../../lib/webhook-diagnosis.js";
import { SIGNATURE_HEADER } from "../../lib/webhook-signature.js";
import type { Output } from "../output.js";
import { QuietExit } from "../quiet-exit.js";
import { UsageError } from "../usage-error.js";

/** Thrown under --json when the signature does not verify: exit 1, the diagnosis in the error object. */
export class SignatureMismatch extends Error {
  override readonly name = "SignatureMismatch";
  constructor(
    message: string,
    /** Under --json, the diagnosis, printed within the error object (cli/report-error.ts). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Options of `msgctl webhooks verify`. */
export interface VerifyCommandOptions {
  secret: string;
  header: string;
  bodyFile: string;
  /** Replay window, seconds (default 300). */
  tolerance?: number;
  /** Check the timestamp against this time instead of now (ISO 8601). */
  at?: string;
}

/** Takes `t=…,v1=…` or a whole `X-service-Signature: t=…,v1=…` line. */
function headerValue(input: string): string {
  const prefix = new RegExp(`^\\s*${SIGNATURE_HEADER}\\s*:\\s*`, "i");
  return input.replace(prefix, "").trim();
}

/**
 * `msgctl webhooks verify --secret S --header H --body-file F`: verifies a saved delivery and
 * explains the outcome: wrong secret, re-serialised body, stale timestamp, malformed header.
 * Exits 0 when it verifies, 1 when it does not.
 */
export function webhooksVerify(options: VerifyCommandOptions, out: Output): SignatureDiagnosis {
  let body: string;
  try {
    body = readFileSync(options.bodyFile, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read --body-file ${options.bodyFile}: ${(error as Error).message}`);
  }
  let now: number | undefined;
  if (options.at !== undefined) {
    now = Date.parse(options.at);
    if (Number.isNaN(now)) throw new UsageError(`--at must be an ISO 8601 time (got ${options.at})`);
  }
  const diagnosis = diagnoseSignature(body, headerValue(options.header), options.secret, {
    toleranceSeconds: options.tolerance,
    now,
  });
  const report = { ...diagnosis.result, cause: diagnosis.cause, explanation: diagnosis.explanation };
  const message = diagnosis.explanation[0] ?? "The signature does not verify";
  // Under --json a failure is one object on stdout: the diagnosis rides in the error's.
  if (out.json && !diagnosis.result.ok) throw new SignatureMismatch(message, report);
  out.result(report, () => [
    diagnosis.result.ok
      ? out.color.green("✔ Verified")
      : out.color.red(`✘ Does not verify (${diagnosis.cause.replaceAll("_", " ")})`),
    ...diagnosis.explanation,
  ]);
  // The report above is the explanation: exit 1 without saying it again on stderr.
  if (!diagnosis.result.ok) throw new QuietExit(1);
  return diagnosis;
}
