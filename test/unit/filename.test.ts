import { describe, expect, it } from "vitest";
import { contentDisposition, FILENAME_MAX, sanitizeFilename, withExtension } from "../../src/lib/filename.js";

describe("sanitizeFilename", () => {
  it.each([
    ["photo.png", "photo.png"],
    ["../../etc/passwd", "passwd"],
    ["C:\\Users\\me\\photo.png", "photo.png"],
    ["dir/sub/", "fallback.bin"],
    ["in\u0000ject\u001b[31m.png", "inject[31m.png"],
    ["bell\u0007\u0085.txt", "bell.txt"],
    ["\u202egnp.exe", "gnp.exe"],
    ["zero\u200bwidth.txt", "zerowidth.txt"],
    ['quo"te<>|?*:.txt', "quo_te______.txt"],
    ["  ...hidden  ", "hidden"],
    ["tabs\tand\nnewlines.txt", "tabs and newlines.txt"],
    ["", "fallback.bin"],
    [undefined, "fallback.bin"],
    ["e\u0301t\u00e9.txt", "\u00e9t\u00e9.txt"],
  ])("%j → %j", (raw, expected) => {
    expect(sanitizeFilename(raw, "fallback.bin")).toBe(expected);
  });

  it("keeps at most 200 characters, the extension included", () => {
    const name = sanitizeFilename(`${"x".repeat(300)}.tar.gz`, "f");
    expect(name).toHaveLength(FILENAME_MAX);
    expect(name.endsWith(".gz")).toBe(true);
    expect([...sanitizeFilename("😀".repeat(300), "f")]).toHaveLength(FILENAME_MAX);
  });
});

describe("withExtension and contentDisposition", () => {
  it("replaces an extension, or adds one", () => {
    expect(withExtension("photo.png", "jpg")).toBe("photo.jpg");
    expect(withExtension("README", "txt")).toBe("README.txt");
  });

  it("carries the name for old clients (ASCII) and new ones (RFC 5987)", () => {
    expect(contentDisposition("inline", 'a "b" é.png')).toBe(
      `inline; filename="a _b_ _.png"; filename*=UTF-8''a%20%22b%22%20%C3%A9.png`,
    );
  });
});
