import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileSink, streamSink } from "../../src/cli/log-sink.js";

/** Log lines never wait for their reader: dropped and counted instead (docs/sandbox.md). */

const note = (count: number) => `dropped ${count}\n`;

/** A stream whose OS side takes writes only while `open`; `flush()` plays the reader catching up. */
function fakeStream() {
  const written: string[] = [];
  const pending: { chunk: string; done: () => void }[] = [];
  let open = true;
  const stream = {
    destroyed: false,
    writableEnded: false,
    get writableLength() {
      return pending.reduce((sum, p) => sum + p.chunk.length, 0);
    },
    write(chunk: string, done: () => void) {
      if (open) {
        written.push(chunk);
        queueMicrotask(done);
      } else pending.push({ chunk, done });
      return open;
    },
  };
  return {
    stream: stream as unknown as NodeJS.WriteStream,
    written,
    block: () => {
      open = false;
    },
    flush() {
      open = true;
      for (const { chunk, done } of pending.splice(0)) {
        written.push(chunk);
        done();
      }
    },
  };
}

describe("a sink over stdout", () => {
  it("writes while the reader keeps up, drops while a line is still queued, then says how many", async () => {
    const fake = fakeStream();
    const sink = streamSink(fake.stream, note);
    sink.write("a\n");
    fake.block();
    sink.write("b\n"); // taken by the stream, waiting for the reader: the one line kept
    sink.write("c\n");
    sink.write("d\n");
    expect(fake.written).toEqual(["a\n"]);
    fake.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.written).toEqual(["a\n", "b\n", "dropped 2\n"]);
    sink.write("e\n");
    expect(fake.written.at(-1)).toBe("e\n");
  });
});

describe("a sink over --log-file", () => {
  it("appends to a file, its folders made", () => {
    const path = join(mkdtempSync(join(tmpdir(), "msgctl-log-")), "a", "b", "serve.log");
    const sink = fileSink(path, note);
    sink.write("one\n");
    sink.write("two\n");
    sink.close();
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
  });

  it("over a named pipe nobody reads: drops instead of blocking, finishes a line begun, then says how many", () => {
    const fifo = join(mkdtempSync(join(tmpdir(), "msgctl-fifo-")), "log");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const sink = fileSink(fifo, note);
    const line = `${"x".repeat(1_000)}\n`;
    // A pipe holds 64 KiB: far fewer than these.
    for (let i = 0; i < 200; i++) sink.write(line);
    const read = () => {
      const chunks: Buffer[] = [];
      const buffer = Buffer.alloc(1 << 16);
      for (;;) {
        try {
          const count = readSync(reader, buffer);
          if (count === 0) break;
          chunks.push(Buffer.from(buffer.subarray(0, count)));
        } catch {
          break; // EAGAIN: all read
        }
      }
      return Buffer.concat(chunks).toString("utf8");
    };
    const first = read();
    expect(first.length).toBeLessThan(200 * line.length);
    sink.write("after\n");
    const second = read();
    const lines = (first + second).split("\n").filter(Boolean);
    expect(lines.every((l) => l === "x".repeat(1_000) || l.startsWith("dropped ") || l === "after")).toBe(true);
    // One count, said once the pipe takes lines again, just before the line it took.
    const notes = lines.filter((l) => l.startsWith("dropped "));
    expect(notes).toHaveLength(1);
    const dropped = notes[0];
    expect(lines.at(-1)).toBe("after");
    // Every line is accounted for: written, or counted as dropped.
    const written = lines.filter((l) => l.startsWith("x")).length;
    expect(written + Number(dropped?.slice("dropped ".length))).toBe(200);
    sink.close();
    closeSync(reader);
  });
});
