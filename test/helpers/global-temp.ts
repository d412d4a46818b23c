import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Gives the run one temporary folder and removes it at the end: the suites' databases, blobs and
 * scratch files, and those of the CLI processes they start, all go under it (os.tmpdir() reads
 * TMPDIR, and vitest's forks and their children inherit it). Without it every run of the suite
 * left some sixty folders in /tmp.
 */
export default function setup(): (() => void) | undefined {
  // Each project that extends the root config runs this setup, all in vitest's main process: once.
  if (process.env.MSGCTL_TEST_TMPDIR) return undefined;
  const folder = mkdtempSync(join(tmpdir(), "msgctl-test-run-"));
  process.env.MSGCTL_TEST_TMPDIR = folder;
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
