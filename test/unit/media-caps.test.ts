import { describe, expect, it } from "vitest";
import { capVerdict, type MediaTerms } from "../../src/domain/attachments/index.js";

const sms = (quality: "fit" | "original"): MediaTerms => ({ channel: "sms", quality, capBytes: 1_048_576 });
const file = (mime_type: string, size_bytes: number) => ({ filename: "f", mime_type, size_bytes });

describe("the media cap rule (docs/attachments.md), SMS/MMS cap of 1 MiB", () => {
  it.each([
    ["image/jpeg", 1_048_576, "fit", "unchanged"],
    ["application/pdf", 1_048_576, "original", "unchanged"],
    ["image/jpeg", 1_048_577, "fit", "transcode"],
    ["image/png", 5_000_000, "fit", "transcode"],
    ["image/webp", 5_000_000, "fit", "transcode"],
    ["video/mp4", 5_000_000, "fit", "transcode"],
    ["video/quicktime", 5_000_000, "fit", "transcode"],
    ["image/jpeg", 1_048_577, "original", "rejected"],
    ["video/mp4", 5_000_000, "original", "rejected"],
    ["application/pdf", 1_048_577, "fit", "rejected"],
    ["audio/mpeg", 5_000_000, "fit", "rejected"],
    ["image/vnd.adobe.photoshop", 5_000_000, "fit", "rejected"],
  ] as const)("%s of %d bytes with %s: %s", (mime, size, quality, decision) => {
    expect(capVerdict(file(mime, size), sms(quality)).decision).toBe(decision);
  });

  it("says why a file is rejected", () => {
    expect(capVerdict(file("application/pdf", 2_000_000), sms("fit"))).toEqual({
      decision: "rejected",
      error:
        "Attachment f (application/pdf, 1.9 MiB) is over the SMS/MMS media cap of 1.0 MiB; only images and video are transcoded to fit",
    });
    expect(capVerdict(file("image/png", 2_000_000), sms("original"))).toEqual({
      decision: "rejected",
      error:
        "Attachment f (image/png, 1.9 MiB) is over the SMS/MMS media cap of 1.0 MiB and media_quality is original (never transcoded)",
    });
  });
});
