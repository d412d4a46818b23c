import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseSignatureHeader, signatureHeader, verifyWebhook } from "../../src/lib/webhook-signature.js";

const SECRET = "whsec_0123456789abcdefghijklmnop";
const BODY = '{"type":"message.sent","message_id":"m-1"}';
const T = 1_700_000_000;
const NOW = T * 1000;

describe("webhook signatures (spec section 5)", () => {
  it("v1 is hex HMAC-SHA256 keyed by the whole secret over `<t>.<raw body>`", () => {
    const expected = createHmac("sha256", SECRET).update(`${T}.${BODY}`).digest("hex");
    expect(signatureHeader(SECRET, T, BODY)).toBe(`t=${T},v1=${expected}`);
    expect(signatureHeader(SECRET, T, Buffer.from(BODY))).toBe(`t=${T},v1=${expected}`);
  });

  it("verifies a good signature, from a string or a Buffer body", () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW })).toEqual({ ok: true, timestamp: T });
    expect(verifyWebhook(Buffer.from(BODY), header, SECRET, { now: new Date(NOW) })).toEqual({
      ok: true,
      timestamp: T,
    });
  });

  it("explains a wrong secret or a changed body as a signature mismatch", () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifyWebhook(BODY, header, "whsec_another_secret_entirely", { now: NOW })).toMatchObject({
      ok: false,
      reason: "signature_mismatch",
    });
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    expect(verifyWebhook(reserialised, header, SECRET, { now: NOW })).toMatchObject({
      ok: false,
      reason: "signature_mismatch",
    });
  });

  it("rejects a timestamp outside the replay window (300 s by default)", () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW + 300_000 }).ok).toBe(true);
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW + 301_000 })).toMatchObject({
      ok: false,
      reason: "stale_timestamp",
      timestamp: T,
    });
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW - 301_000 })).toMatchObject({
      ok: false,
      reason: "stale_timestamp",
    });
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW + 3_600_000, toleranceSeconds: 3_600 }).ok).toBe(true);
  });

  it.each([
    ["", "missing_header"],
    [undefined, "missing_header"],
    ["v1=abc", "malformed_header"],
    [`t=${T}`, "malformed_header"],
    [`t=soon,v1=${"a".repeat(64)}`, "malformed_header"],
    [`t=${T},v1=xyz`, "malformed_header"],
  ])("explains the header %j as %s", (header, reason) => {
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW })).toMatchObject({ ok: false, reason });
  });

  it("accepts any matching v1 among several and ignores unknown schemes", () => {
    const good = signatureHeader(SECRET, T, BODY).split(",v1=")[1];
    const header = `t=${T},v0=zzz,v1=${"0".repeat(64)},v1=${good}`;
    expect(parseSignatureHeader(header)?.signatures).toHaveLength(2);
    expect(verifyWebhook(BODY, header, SECRET, { now: NOW }).ok).toBe(true);
    expect(verifyWebhook(BODY, [`t=${T}`, `v1=${good}`], SECRET, { now: NOW }).ok).toBe(true);
  });

  it("refuses a parsed body with a reason that says so", () => {
    const header = signatureHeader(SECRET, T, BODY);
    expect(verifyWebhook(JSON.parse(BODY), header, SECRET, { now: NOW })).toMatchObject({
      ok: false,
      reason: "body_not_raw",
    });
  });
});
