import { verifyWebhook, type VerifyOptions, type VerifyResult } from "./webhook-signature.js";

/** The likeliest cause of a signature that does or does not verify. */
export type SignatureCause =
  | "verified"
  | "missing_header"
  | "malformed_header"
  | "body_not_raw"
  | "stale_timestamp"
  | "reserialised_body"
  | "secret_prefix"
  | "wrong_secret";

/** verifyWebhook's result, with the likeliest cause and sentences for people. */
export interface SignatureDiagnosis {
  result: VerifyResult;
  cause: SignatureCause;
  explanation: string[];
}

// Ways a body commonly changes between the wire and the verifier, most likely first.
const BODY_VARIANTS: [string, (body: string) => string | undefined][] = [
  [
    "a trailing newline was added (saving to a file, echo)",
    (body) => (/\r?\n$/.test(body) ? body.replace(/\r?\n$/, "") : undefined),
  ],
  [
    "it was parsed and written out again with other spacing (what a JSON body parser and encoder do)",
    (body) => reserialise(body, 0),
  ],
  ["it was parsed and written out again with indentation", (body) => reserialise(body, 2)],
  ["surrounding whitespace was changed", (body) => (body.trim() !== body ? body.trim() : undefined)],
];

function reserialise(body: string, indent: number): string | undefined {
  try {
    return JSON.stringify(JSON.parse(body), null, indent);
  } catch {
    return undefined;
  }
}

/**
 * Verifies like verifyWebhook, then works out why a failure happened: a stale timestamp whose
 * signature is otherwise right, a body that no longer has the signed bytes, a secret missing or
 * carrying its `whsec_` prefix, or else a wrong secret. What `msgctl webhooks verify` prints.
 */
export function diagnoseSignature(
  rawBody: string,
  header: string,
  secret: string,
  options: VerifyOptions = {},
): SignatureDiagnosis {
  const result = verifyWebhook(rawBody, header, secret, options);
  if (result.ok) {
    return {
      result,
      cause: "verified",
      explanation: [`The signature verifies: signed at ${new Date(result.timestamp * 1000).toISOString()}.`],
    };
  }
  const timeless = { ...options, toleranceSeconds: Number.POSITIVE_INFINITY };
  const verifies = (body: string, key: string) => verifyWebhook(body, header, key, timeless).ok;

  switch (result.reason) {
    case "missing_header":
    case "malformed_header":
    case "body_not_raw":
      return { result, cause: result.reason, explanation: [result.message] };
    case "stale_timestamp": {
      const rest = verifies(rawBody, secret)
        ? "The secret and body are right: only the time is off. Deliveries are signed when sent, so a saved delivery goes stale; a replayed one should be refused."
        : "The signature would not verify at any time either: check the secret and the body too.";
      return { result, cause: "stale_timestamp", explanation: [result.message + ".", rest] };
    }
    case "signature_mismatch":
      break;
  }

  // --- A mismatch: which input is off? ---
  for (const [how, change] of BODY_VARIANTS) {
    // The signed bytes may be the file with the change undone, or the file may be the original.
    const variant = change(rawBody);
    if (variant !== undefined && variant !== rawBody && verifies(variant, secret)) {
      return {
        result,
        cause: "reserialised_body",
        explanation: [
          "The signature does not match this body, but it matches the same JSON as it was sent:",
          `${how}. Verify the raw request bytes exactly as received, before any parsing.`,
        ],
      };
    }
  }
  const otherSecret = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : `whsec_${secret}`;
  if (verifies(rawBody, otherSecret)) {
    return {
      result,
      cause: "secret_prefix",
      explanation: [
        secret.startsWith("whsec_")
          ? "The signature matches the secret without its whsec_ prefix: this endpoint's secret is the shorter string."
          : "The signature matches with the whsec_ prefix: the HMAC key is the whole secret string, whsec_ included.",
      ],
    };
  }
  return {
    result,
    cause: "wrong_secret",
    explanation: [
      "The signature does not match: the secret is most likely wrong (rotated, or another endpoint's),",
      "or the body differs from what was sent in a way that is not a re-serialisation.",
    ],
  };
}
