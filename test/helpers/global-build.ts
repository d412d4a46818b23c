import { execFileSync } from "node:child_process";
import { CHROMIUM, NO_CHROMIUM } from "./browser.js";

/** Builds dist/ once before the suites: the end-to-end tests run the real bin/msgctl. */
export default function setup(): void {
  // Each project that extends the root config runs this setup, all in vitest's main process: build once.
  if (!process.env.MSGCTL_TEST_BUILT) {
    execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
    process.env.MSGCTL_TEST_BUILT = "1";
  }
  // Said once per run, though each project that extends the root config runs this setup.
  if (!CHROMIUM && !process.env.MSGCTL_NO_CHROMIUM_SAID) {
    process.env.MSGCTL_NO_CHROMIUM_SAID = "1";
    console.warn(NO_CHROMIUM);
  }
}
