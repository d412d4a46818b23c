import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.js";

/**
 * docs/snapshots.md's pytest suite, run as written against the real CLI: a session fixture that
 * starts `msgctl serve`, builds a world and saves it, a restore before each test, and two tests
 * of which the second sees nothing of the first.
 */

const DOC = readFileSync(resolve(import.meta.dirname, "../../docs/snapshots.md"), "utf8");
const run = promisify(execFile);

/** The code block marked `<!-- tested: NAME -->` in docs/snapshots.md. */
function snippet(name: string): string {
  const found = new RegExp(`<!-- tested: ${name.replace(".", "\\.")} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(
    DOC,
  );
  if (!found?.[1]) throw new Error(`docs/snapshots.md has no snippet marked "tested: ${name}"`);
  return found[1];
}

const hasPytest = await run("python3", ["-c", "import pytest"]).then(
  () => true,
  () => false,
);
if (!hasPytest)
  console.log(
    "docs/snapshots.md's pytest suite skipped: python3 cannot import pytest (apt-get install -y python3-pytest)",
  );

describe.skipIf(!hasPytest)("docs/snapshots.md's pytest suite", () => {
  it("passes: each test starts from the snapshot, whatever the one before did", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-snapshots-pytest-"));
    for (const file of ["conftest.py", "test_orders.py"]) writeFileSync(join(dir, file), `${snippet(file)}\n`);
    // `msgctl` on the PATH, as a user who installed it has it.
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "msgctl"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, "msgctl"), 0o755);
    const { stdout } = await run("python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider"], {
      cwd: dir,
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME },
      timeout: 110_000,
    });
    expect(stdout).toMatch(/2 passed/);
  });
});
