// The single binary's main (scripts/build-binary.mjs). It runs msgctl's client bundle, carried as
// the `client.js` asset, and compiles the sandbox's bundle (`sandbox.js`) only when a command needs
// it (scripts/sea-bundles.mjs draws the line), each with a V8 code cache trained at build time
// (`client.cache`, `sandbox.cache`, scripts/train-code-cache.mjs).
//
// Why not SEA's own `useCodeCache`: that cache is taken right after compiling the main script, so
// it holds only its top level. esbuild wraps every lazily loaded module in a function, and V8
// compiles each function on first call, at every start. The trained caches are taken after a real
// `serve` has started and answered, and after a real client command has run, so they hold what a
// start runs. Why two bundles: a start deserializes (or compiles) the whole of what it runs, and a
// client command needs a tenth of the sandbox's code (bench/HISTORY.md).
//
// `MSGCTL_CODE_CACHE=report` prints on stderr whether V8 accepted each cache (the binary's test checks it).
"use strict";
// SIGINT and SIGTERM are caught before the bundle is even compiled, and the process named for what
// it runs, as bin/msgctl does (see there).
const serving = process.argv.slice(2).find((arg) => !arg.startsWith("-")) === "serve";
const latch = (signal) => process.exit(serving ? 0 : signal === "SIGINT" ? 130 : 143);
process.on("SIGINT", latch);
process.on("SIGTERM", latch);
globalThis[Symbol.for("msgctl.signal-latch")] = latch;
process.title = ["msgctl", ...process.argv.slice(2)].join(" ");

const { getRawAsset } = require("node:sea");
const { Script } = require("node:vm");
const { dirname } = require("node:path");

/** The compiled bundles by name, for the training of their caches (scripts/train-code-cache.mjs). */
const compiled = {};
globalThis[Symbol.for("msgctl.sea-scripts")] = compiled;

/** Compiles the bundle `name` with its cache, runs it as a CommonJS module and returns its exports. */
function runBundle(name) {
  const source = Buffer.from(getRawAsset(`${name}.js`)).toString("utf8");
  let cachedData;
  try {
    cachedData = Buffer.from(getRawAsset(`${name}.cache`));
  } catch {
    // A binary built without training runs the same, compiling as it goes.
  }
  const script = new Script(source, { filename: process.execPath, cachedData });
  if (process.env.MSGCTL_CODE_CACHE === "report") {
    process.stderr.write(
      `code cache (${name}): ${cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "accepted"}\n`,
    );
  }
  compiled[name] = script;
  const module_ = { exports: {} };
  // Each bundle is CommonJS wrapped like a module; `require` is the binary's own (built-in modules only).
  script.runInThisContext()(module_.exports, require, module_, process.execPath, dirname(process.execPath));
  return module_.exports;
}

let sandbox;
// The client bundle calls this where a command crosses into the sandbox's code.
globalThis[Symbol.for("msgctl.sandbox-bundle")] = () => {
  sandbox ??= runBundle("sandbox");
  return sandbox;
};
runBundle("client");
