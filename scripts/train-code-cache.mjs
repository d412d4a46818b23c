// Trains the single binary's code cache (scripts/sea-loader.cjs says why): runs the bundle with
// this same Node, as the binary would, through `serve` until both hosts have answered `/healthz`,
// then writes V8's cache of everything compiled so far. The cache is only an accelerator: V8
// rejects one that does not fit, and the binary then compiles as it goes.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Runs in a child Node: fakes `node:sea` from files, starts `serve`, and writes the cache. */
const TRAINER = String.raw`
const Module = require("node:module");
const { readFileSync, writeFileSync } = require("node:fs");
const { Script } = require("node:vm");
const { dirname } = require("node:path");
const [appFile, cacheFile, assetsJson] = process.argv.slice(2, 5);
const assets = JSON.parse(assetsJson);
const sea = {
  isSea: () => true,
  getRawAsset(name) {
    if (!assets[name]) throw new Error("no asset " + name);
    const bytes = readFileSync(assets[name]);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
  },
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "node:sea" ? sea : load.call(this, request, ...rest);
};
// The same source string the binary compiles: V8 matches a cache to its source.
const script = new Script(readFileSync(appFile, "utf8"), { filename: process.execPath });
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const line = String(chunk);
  if (line.startsWith("{")) void trained(JSON.parse(line));
  return write(chunk, ...rest);
};
async function trained(ready) {
  for (const url of [ready.base_url, ready.otp_url]) await fetch(url + "/healthz");
  writeFileSync(cacheFile, script.createCachedData());
  process.exit(0);
}
setTimeout(() => { console.error("training: serve did not start within 60 s"); process.exit(1); }, 60_000).unref();
process.argv = [process.argv[0], process.execPath, "serve", "--json", "--quiet", "--db", ":memory:", "--port", "0", "--otp-port", "0", "--no-state-file"];
const module_ = { exports: {} };
script.runInThisContext()(module_.exports, require, module_, process.execPath, dirname(process.execPath));
`;

/** Writes the trained cache of `appFile` to `cacheFile`; `assets` maps asset names to files. */
export function trainCodeCache(appFile, cacheFile, assets) {
  const work = mkdtempSync(join(tmpdir(), "msgctl-train-"));
  try {
    const trainer = join(work, "train.cjs");
    writeFileSync(trainer, TRAINER);
    const result = spawnSync(process.execPath, [trainer, appFile, cacheFile, JSON.stringify(assets)], {
      // The native parts extract into a cache folder of the training's own.
      env: { ...process.env, XDG_CACHE_HOME: work, NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "inherit"],
      timeout: 90_000,
    });
    if (result.status !== 0) throw new Error(`training the code cache failed (exit ${result.status ?? result.signal})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
