import { describe, expect, it } from "vitest";
import { isAppError } from "../../src/lib/app-error.js";
import { classifyAddress, parseWebhookUrl } from "../../src/lib/webhook-url.js";

const SANDBOX = { allowLoopback: true };
const STRICT = { allowLoopback: false };

function reason(url: string, policy = SANDBOX): string | undefined {
  try {
    parseWebhookUrl(url, policy);
    return undefined;
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(error.code).toBe("invalid_url");
    expect(error.status).toBe(400);
    return error.message;
  }
}

describe("webhook URL rules (spec 4.4, docs/sandbox.md)", () => {
  describe("addresses", () => {
    it.each([
      ["93.184.216.34", "public"],
      ["2606:4700::1111", "public"],
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["::1", "loopback"],
      ["[::1]", "loopback"],
    ])("%s is %s", (address, kind) => {
      expect(classifyAddress(address).kind).toBe(kind);
    });

    it.each([
      ["10.0.0.1", "private"],
      ["172.16.0.1", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "cloud metadata"],
      ["fd00:ec2::254", "cloud metadata"],
      ["169.254.1.1", "link-local"],
      ["fe80::1", "link-local"],
      ["0.0.0.0", "unspecified"],
      ["::", "unspecified"],
      ["224.0.0.1", "multicast"],
      ["ff02::1", "multicast"],
      ["255.255.255.255", "broadcast"],
      ["100.64.0.1", "carrier-grade NAT"],
      ["192.0.2.1", "reserved"],
      ["198.18.0.1", "reserved"],
      ["240.0.0.1", "reserved"],
      ["fc00::1", "unique-local"],
      ["::ffff:7f00:1", "IPv4-mapped"],
      ["::ffff:8.8.8.8", "IPv4-mapped"],
      ["::7f00:1", "IPv4-compatible"],
      ["64:ff9b::7f00:1", "NAT64"],
      ["2002:7f00:1::", "6to4"],
      ["2001::1", "Teredo"],
      ["2001:db8::1", "reserved"],
    ])("%s is forbidden (%s)", (address, words) => {
      const verdict = classifyAddress(address);
      expect(verdict.kind).toBe("forbidden");
      expect(verdict.kind === "forbidden" && verdict.reason).toContain(words);
    });
  });

  describe("URLs at creation", () => {
    it.each(["https://hooks.example.com/x", "http://93.184.216.34:8080/hook?x=1", "https://[2606:4700::1111]/"])(
      "accepts the public URL %s",
      (url) => {
        expect(reason(url)).toBeUndefined();
        expect(reason(url, STRICT)).toBeUndefined();
      },
    );

    it.each([
      ["ftp://example.com/", "http or https"],
      ["javascript:alert(1)", "http or https"],
      ["file:///etc/passwd", "http or https"],
      ["not a url", "not an absolute URL"],
      ["/relative/path", "not an absolute URL"],
      ["https://user:pw@example.com/", "credentials"],
      [`https://example.com/${"x".repeat(2100)}`, "2048"],
      ["http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ])("rejects %s (%s)", (url, words) => {
      expect(reason(url)).toContain(words);
    });

    // Numeric host forms: the WHATWG parser turns each into the dotted quad it means.
    it.each([
      ["http://10.0.0.1/", "private"],
      ["http://167772161/", "private"], // decimal 10.0.0.1
      ["http://012.0.0.1/", "private"], // octal
      ["http://0xa.0.0.1/", "private"], // hex
      ["http://10.1/", "private"], // short form
      ["http://192.168.1.1/", "private"],
      ["http://0xc0a80101/", "private"],
      ["http://169.254.169.254/latest/meta-data/", "cloud metadata"],
      ["http://2852039166/", "cloud metadata"], // decimal 169.254.169.254
      ["http://0251.0376.0251.0376/", "cloud metadata"], // octal
      ["http://[fd00:ec2::254]/", "cloud metadata"],
      ["http://[fe80::1]/", "link-local"],
      ["http://0.0.0.0/", "unspecified"],
      ["http://0/", "unspecified"],
      ["http://[::]/", "unspecified"],
      ["http://224.0.0.1/", "multicast"],
      ["http://100.64.0.1/", "carrier-grade NAT"],
      ["http://[::ffff:127.0.0.1]/", "IPv4-mapped"],
      ["http://[::ffff:10.0.0.1]/", "IPv4-mapped"],
      ["http://[::127.0.0.1]/", "IPv4-compatible"],
      ["http://[64:ff9b::127.0.0.1]/", "NAT64"],
    ])("rejects %s in both modes (%s)", (url, words) => {
      expect(reason(url)).toContain(words);
      expect(reason(url, STRICT)).toContain(words);
    });

    it.each([
      "http://127.0.0.1:3000/hook",
      "http://localhost:3000/hook",
      "http://LOCALHOST./hook",
      "http://api.localhost/hook",
      "http://[::1]:8080/",
      "http://2130706433/", // decimal
      "http://0177.0.0.1/", // octal
      "http://0x7f.0.0.1/", // hex
      "http://0x7f000001/",
      "http://127.1/", // short form
    ])("accepts loopback %s by default and rejects it with --strict-urls", (url) => {
      expect(reason(url)).toBeUndefined();
      expect(reason(url, STRICT)).toMatch(/loopback.*strict-urls/);
    });

    it("normalises the URL it keeps (numeric hosts become dotted quads)", () => {
      expect(parseWebhookUrl("http://2130706433:8080/hook", SANDBOX).href).toBe("http://127.0.0.1:8080/hook");
      expect(parseWebhookUrl("HTTPS://Hooks.Example.COM/a", SANDBOX).href).toBe("https://hooks.example.com/a");
    });
  });
});
