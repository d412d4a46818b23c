import { describe, expect, it } from "vitest";
import { diagnoseSignature } from "../../src/lib/webhook-diagnosis.js";
import { signatureHeader } from "../../src/lib/webhook-signature.js";

const SECRET = "whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345";
const BODY = JSON.stringify({ type: "message.sent", message_id: "m-1", text: "hi" });
const T = 1_700_000_000;
const NOW = T * 1000 + 2_000;
const HEADER = signatureHeader(SECRET, T, BODY);

describe("explaining a signature (msgctl webhooks verify)", () => {
  it("verified", () => {
    expect(diagnoseSignature(BODY, HEADER, SECRET, { now: NOW })).toMatchObject({
      cause: "verified",
      result: { ok: true },
    });
  });

  it("a wrong secret", () => {
    const d = diagnoseSignature(BODY, HEADER, "whsec_somebody_elses_secret_000", { now: NOW });
    expect(d.cause).toBe("wrong_secret");
    expect(d.explanation.join(" ")).toContain("secret is most likely wrong");
  });

  it.each([
    ["pretty-printed", JSON.stringify(JSON.parse(BODY), null, 2)],
    ["with a trailing newline", `${BODY}\n`],
    ["re-serialised with spaces", JSON.stringify(JSON.parse(BODY), null, 1)],
  ])("a body %s", (_name, body) => {
    const d = diagnoseSignature(body, HEADER, SECRET, { now: NOW });
    expect(d.cause).toBe("reserialised_body");
    expect(d.explanation.join(" ")).toContain("raw request bytes");
    // Said to users of every language: no JavaScript function names.
    expect(d.explanation.join(" ")).not.toMatch(/JSON\.stringify|JSON\.parse/);
  });

  it("a stale timestamp, saying whether the rest is right", () => {
    const stale = diagnoseSignature(BODY, HEADER, SECRET, { now: NOW + 3_600_000 });
    expect(stale.cause).toBe("stale_timestamp");
    expect(stale.explanation.join(" ")).toContain("only the time is off");
    const staleAndWrong = diagnoseSignature(BODY, HEADER, "whsec_wrong_wrong_wrong_wrong", { now: NOW + 3_600_000 });
    expect(staleAndWrong.explanation.join(" ")).toContain("check the secret and the body too");
  });

  it("a secret given without its whsec_ prefix", () => {
    expect(diagnoseSignature(BODY, HEADER, SECRET.slice(6), { now: NOW }).cause).toBe("secret_prefix");
  });

  it("a malformed or missing header", () => {
    expect(diagnoseSignature(BODY, "sha256=abc", SECRET, { now: NOW }).cause).toBe("malformed_header");
    expect(diagnoseSignature(BODY, "", SECRET, { now: NOW }).cause).toBe("missing_header");
  });
});
