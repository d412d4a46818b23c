import { execFileSync } from "node:child_process";

/** Builds dist/ once before the suites: the end-to-end tests run the real bin/msgctl. */
export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
