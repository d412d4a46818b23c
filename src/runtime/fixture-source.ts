import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseFixtureText, type Fixture } from "../domain/control/index.js";
import { AppError } from "../lib/app-error.js";
import { binaryAsset } from "./single-binary.js";

/** The fixture shipped inside msgctl, used when none is named. */
function defaultFixturePath(): string {
  // dist/ and src/runtime/ are both one or two levels under the package root.
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [resolve(here, "../fixtures/default.json"), resolve(here, "../../fixtures/default.json")]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next layout
    }
  }
  return resolve(here, "../../fixtures/default.json");
}

/** The shipped fixture as the builds parsed it (scripts/default-fixture.mjs); absent when running the sources. */
declare const __MSGCTL_DEFAULT_FIXTURE__: Fixture | undefined;

/** The shipped fixture, validated: at build time in a build, else carried inside the single binary or read from the package. */
export function loadDefaultFixture(): Fixture {
  // A copy: esbuild shares one object for the define, and a sandbox may be started twice.
  if (typeof __MSGCTL_DEFAULT_FIXTURE__ !== "undefined") return structuredClone(__MSGCTL_DEFAULT_FIXTURE__);
  const carried = binaryAsset("default.json");
  if (carried) return parseFixtureText(carried.toString("utf8"), "the default fixture");
  return loadFixtureFile(defaultFixturePath());
}

/** Reads and validates a fixture file; errors name the file, the field and the problem. */
export function loadFixtureFile(path: string): Fixture {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new AppError(
      "invalid_request",
      400,
      `${path}: cannot read the fixture (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  return parseFixtureText(text, path);
}
