// Counting characters as people see them (grapheme clusters), for the spec's limits on titles
// and reactions.

// Made on first use: building an ICU segmenter costs several milliseconds, and most runs of
// msgctl (every command but a few requests of `serve`) never count graphemes.
let segmenter: Intl.Segmenter | undefined;

/** The number of grapheme clusters in `text`. Callers bound `text` by length first: segmenting is not linear. */
export function graphemeCount(text: string): number {
  segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" });
  let count = 0;
  for (const _ of segmenter.segment(text)) count++;
  return count;
}
