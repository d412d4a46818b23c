import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The messages' status table (domain/messages/status-table.ts) is the only writer of a message's
 * status: the store's functions that write one are called from it alone, and no other SQL updates
 * the messages table's status. (The store's `updateMessage` takes no status, by its type.)
 */

const ROOT = resolve(import.meta.dirname, "../..");
const TABLE = "src/domain/messages/status-table.ts";
/** The store's functions that write a message's status. */
const STATUS_WRITERS = ["insertMessage", "saveLifecycle", "moveConversationMessages"];

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const sources = sourcesUnder("src").map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));
const definedHere = (text: string, name: string) => new RegExp(`export function ${name}\\b`).test(text);

describe("the messages' status table is the only writer of message statuses", () => {
  it("only the table calls the store's functions that write a status", () => {
    const callers = sources.flatMap(({ file, text }) =>
      STATUS_WRITERS.filter((name) => new RegExp(`\\b${name}\\(`).test(text) && !definedHere(text, name)).map(
        (name) => `${file}: ${name}`,
      ),
    );
    expect(callers).toEqual(STATUS_WRITERS.map((name) => `${TABLE}: ${name}`));
  });

  it("no other SQL writes the messages table", () => {
    const writers = sources
      .filter(({ text }) => /(updateTable|insertInto)\("messages"\)|(UPDATE|INSERT INTO) messages\b/.test(text))
      .filter(({ text }) => !STATUS_WRITERS.some((name) => definedHere(text, name)))
      .map(({ file }) => file);
    expect(writers).toEqual([]);
  });
});
