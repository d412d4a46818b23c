import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocumentOf } from "../../src/runtime/openapi.js";
import { BIN } from "../helpers/cli.js";

// How long the reader leaves the pipe unread once output has started: enough for a process that
// exits without waiting for its pipe to do so. A real child process is awaited here, not a clock.
const SLOW_READER_MS = 500;

/** Starts `msgctl ARGS` in an empty directory (no sandbox known) with stdout a pipe nobody reads yet. */
function start(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: mkdtempSync(join(tmpdir(), "msgctl-pipe-")),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, exited, stderr: () => stderr };
}

describe("piped output is never cut off (exit waits for stdout to drain)", () => {
  it("a reader slower than the command still gets the whole OpenAPI document, and the exit status is 0", async () => {
    const expected = `${JSON.stringify(await openApiDocumentOf("messaging"), null, 2)}\n`;
    expect(Buffer.byteLength(expected)).toBeGreaterThan(4 * 65_536); // far past any pipe's buffer

    const { child, exited, stderr } = start(["openapi"]);
    // Paused: node reads ahead into its buffer, then leaves the rest in the pipe.
    child.stdout.pause();
    await new Promise<void>((first) => child.stdout.once("readable", () => first()));
    let exitedEarly = false;
    void exited.then(() => (exitedEarly = true));
    await Promise.race([exited, new Promise((done) => setTimeout(done, SLOW_READER_MS))]);
    const exitedBeforeRead = exitedEarly;

    const chunks: Buffer[] = [];
    const closed = new Promise((done) => child.stdout.once("close", done));
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const code = await exited;
    await closed;

    expect(stderr()).toBe("");
    expect(Buffer.concat(chunks).toString()).toBe(expected);
    expect(code).toBe(0);
    // It could not have exited while its output sat unread in the pipe.
    expect(exitedBeforeRead).toBe(false);
  });

  it("a reader that stops early (`| head -c 10`) ends it quietly, with no crash report and no hang", async () => {
    const { child, exited, stderr } = start(["openapi"]);
    const first = await new Promise<Buffer>((done) => child.stdout.once("data", done));
    child.stdout.destroy(); // the reader goes away: the next write meets EPIPE
    expect(first.subarray(0, 10).toString()).toBe('{\n  "opena');
    expect(await exited).toBe(0);
    expect(stderr()).toBe("");
  });
});
