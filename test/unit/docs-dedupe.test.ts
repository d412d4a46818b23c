import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocumentOf } from "../../src/runtime/openapi.js";

/**
 * The spec's dedupe rule (`message_id` plus `type`) drops real events in a receiver that follows
 * it: a reaction and its removal, every typing event after the first, a second edit. Wherever the
 * docs or the OpenAPI document repeat it, they warn and point to `X-Msgctl-Event-Id`.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Paragraphs and list items that state the spec's key: a dedupe near `message_id` and `type`. */
function statingTheRule(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*[-*] )/)
    .filter((block) => /dedupe|deduplicat/i.test(block) && /message_id/.test(block) && /\btype\b/.test(block));
}

describe("the spec's dedupe key is never repeated without its warning", () => {
  it.each(PAGES)("%s", (page) => {
    for (const block of statingTheRule(readFileSync(join(ROOT, page), "utf8")))
      expect(block, `${page} repeats the rule without pointing to X-Msgctl-Event-Id`).toContain("X-Msgctl-Event-Id");
  });

  it("the pages that state it are the ones that warn (the check finds them)", () => {
    const stating = PAGES.filter((page) => statingTheRule(readFileSync(join(ROOT, page), "utf8")).length > 0);
    expect(stating).toEqual(
      expect.arrayContaining(["docs/webhooks.md", "docs/messages.md", "docs/conversations.md", "docs/verify.md"]),
    );
  });

  it("each webhook of the OpenAPI document warns too, naming the events the key drops", async () => {
    const document = await openApiDocumentOf("messaging");
    for (const [type, item] of Object.entries(document.webhooks as Record<string, { post: { description: string } }>)) {
      expect(item.post.description, type).toContain("Dedupe on X-Msgctl-Event-Id");
      expect(item.post.description, type).toContain("a reaction and its removal share it");
    }
  });
});
