import { createRequire } from "node:module";

/** Set by the builds (scripts/build.mjs, build-binary.mjs); absent when running the sources. */
declare const __MSGCTL_VERSION__: string | undefined;

/** msgctl's version: set at build time, else read from package.json (the sources under tsx or vitest). */
export function packageVersion(): string {
  if (typeof __MSGCTL_VERSION__ === "string") return __MSGCTL_VERSION__;
  const require = createRequire(import.meta.url);
  for (const path of ["../package.json", "../../package.json"]) {
    try {
      return (require(path) as { version: string }).version;
    } catch {
      // try the other layout
    }
  }
  return "0.0.0";
}
