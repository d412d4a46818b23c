// The single binary's main (scripts/build-binary.mjs). It runs msgctl's bundle, carried as the
// `app.js` asset, with a V8 code cache trained at build time (`app.cache`, scripts/train-code-cache.mjs).
//
// Why not SEA's own `useCodeCache`: that cache is taken right after compiling the bundle, so it
// holds only its top level. esbuild wraps every lazily loaded module in a function, and V8
// compiles each function on first call, at every start. The trained cache is taken after a real
// `serve` has started and answered, so it holds everything a start runs: about a fifth of the
// binary's start-up (bench/HISTORY.md).
//
// `MSGCTL_CODE_CACHE=report` prints on stderr whether V8 accepted the cache (the binary's test checks it).
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

const source = Buffer.from(getRawAsset("app.js")).toString("utf8");
let cachedData;
try {
  cachedData = Buffer.from(getRawAsset("app.cache"));
} catch {
  // A binary built without training runs the same, compiling as it goes.
}
const script = new Script(source, { filename: process.execPath, cachedData });
if (process.env.MSGCTL_CODE_CACHE === "report") {
  process.stderr.write(
    `code cache: ${cachedData === undefined ? "absent" : script.cachedDataRejected ? "rejected" : "accepted"}\n`,
  );
}
const module_ = { exports: {} };
// The bundle is CommonJS wrapped like a module; `require` is the binary's own (built-in modules only).
script.runInThisContext()(module_.exports, require, module_, process.execPath, dirname(process.execPath));
