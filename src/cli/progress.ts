import ora from "ora";
import type { Output } from "./output.js";

/** What a waiting command shows while it waits: a spinner, plain lines, or nothing. */
export interface Progress {
  /** The current state, e.g. "Waiting for … (now sent)". */
  update(text: string): void;
  succeed(text: string): void;
  fail(): void;
  /** Stops drawing at once (on a signal), leaving the terminal usable. */
  stop(): void;
  /** A line for people on stderr, above a spinner, even where no progress is drawn. */
  note(text: string): void;
}

/** A stream that can carry a spinner: a terminal that reports a width (and is not TERM=dumb). */
function canAnimate(stream: { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (stream.columns ?? 0) > 0 && env.TERM !== "dumb";
}

const silent = (out: Output): Progress => ({
  update() {},
  succeed() {},
  fail() {},
  stop() {},
  note: (text) => {
    if (!out.json) out.note(text);
  },
});

/**
 * Progress for people, on stderr so that stdout keeps only the result. A spinner where the
 * terminal can redraw a line; on a terminal that reports zero columns (CI ptys, some editors)
 * ora would compute an infinite line count and redraw forever, so plain lines are written
 * instead, one per change. Nothing with --json or when output is not a terminal.
 */
export function startProgress(out: Output, text: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (out.json || !out.interactive) return silent(out);
  if (canAnimate(stream)) {
    // The terminal stays in cooked mode, so Ctrl-C is the terminal's SIGINT. ora's discardStdin
    // puts stdin in raw mode and listens for Ctrl-C without making stdin flow (a prepended
    // 'data' listener does not resume a stream that was never read), so the keypress was never seen.
    const spinner = ora({ text, stream, discardStdin: false }).start();
    let current = text;
    return {
      update(next) {
        current = next;
        spinner.text = next;
      },
      succeed: (done) => void spinner.succeed(done),
      fail: () => void spinner.fail(),
      stop: () => void spinner.stop(),
      // Written above the spinner, which carries on below it.
      note: (line) => void spinner.stopAndPersist({ symbol: "ℹ", text: line }).start(current),
    };
  }
  let shown = text;
  stream.write(`${text}\n`);
  return {
    update(next) {
      if (next === shown) return;
      shown = next;
      stream.write(`${next}\n`);
    },
    succeed: (done) => void stream.write(`${done}\n`),
    fail() {},
    stop() {},
    note: (line) => void stream.write(`${line}\n`),
  };
}
