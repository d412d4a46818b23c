import { describe, expect, it } from "vitest";
import { hashKey, keyKind, sameHash } from "../../src/lib/key-hash.js";

describe("API keys (spec section 5)", () => {
  it("hashes keys with SHA-256, so they are never stored in clear", () => {
    expect(hashKey("sk_test_abc")).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey("sk_test_abc")).toBe(hashKey("sk_test_abc"));
    expect(hashKey("sk_test_abc")).not.toBe(hashKey("sk_test_abd"));
  });

  it("keeps the digest stored keys were saved with: SHA-256 of the key's UTF-8 bytes, in hex", () => {
    expect(hashKey("sk_test_abc")).toBe("4b4090ccee1e713c3d411b96a4226b90bd0f0deb34e02d19475a951316fd04ee");
    expect(hashKey("sk_test_é")).toBe("4c88cc994ba32bb2c7abde44830369259198f42b4b2ebe7d62ec16827bd4b57d");
  });

  it("compares hashes in constant time, refusing different lengths", () => {
    expect(sameHash(hashKey("a"), hashKey("a"))).toBe(true);
    expect(sameHash(hashKey("a"), hashKey("b"))).toBe(false);
    expect(sameHash(hashKey("a"), "abcd")).toBe(false);
  });

  it.each([
    ["sk_live_abc123", "messaging"],
    ["sk_test_abc_123", "messaging"],
    ["otp_live_abc", "otp"],
    ["otp_test_abc", undefined],
    ["pk_live_abc", undefined],
    ["sk_test_", undefined],
    ["sk_test_a b", undefined],
  ])("tells %s is a %s key", (key, kind) => {
    expect(keyKind(key)).toBe(kind);
  });
});
