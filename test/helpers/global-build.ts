import { execFileSync } from "node:child_process";
import { CHROMIUM, NO_CHROMIUM } from "./browser.js";

/** Builds dist/ once before the suites: the end-to-end tests run the real bin/msgctl. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  // Said once per run, though each project that extends the root config runs this setup.
  if (!CHROMIUM && !process.env.MSGCTL_NO_CHROMIUM_SAID) {
    process.env.MSGCTL_NO_CHROMIUM_SAID = "1";
    console.warn(NO_CHROMIUM);
  }
}
