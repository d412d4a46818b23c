// Trains the single binary's code caches (scripts/sea-loader.cjs says why): runs the binary's
// loader with this same Node, as the binary would, `node:sea` faked from the asset files, and
// writes V8's cache of everything each bundle compiled so far:
// - sandbox.cache: `serve` until both hosts have answered `/healthz`;
// - client.cache: `msgctl clock --json` against that serve, at its exit.
// A cache is only an accelerator: V8 rejects one that does not fit, and the binary then compiles
// as it goes.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** Runs in a child Node: fakes `node:sea` from files, runs the loader with the given argv. */
const TRAINER = String.raw`
const Module = require("node:module");
const { readFileSync, writeFileSync } = require("node:fs");
const [loader, mode, cacheDir, assetsJson, ...args] = process.argv.slice(2);
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
const compiled = () => globalThis[Symbol.for("msgctl.sea-scripts")];
const save = (name) => writeFileSync(cacheDir + "/" + name + ".cache", compiled()[name].createCachedData());
if (mode === "serve") {
  // The same source strings the binary compiles: V8 matches a cache to its source.
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    const line = String(chunk);
    if (line.startsWith("{")) void trained(JSON.parse(line));
    return write(chunk, ...rest);
  };
  async function trained(ready) {
    for (const url of [ready.base_url, ready.otp_url]) await fetch(url + "/healthz");
    save("sandbox");
    process.send(ready);
  }
} else {
  process.on("exit", () => save("client"));
}
setTimeout(() => { console.error("training: " + mode + " did not finish within 60 s"); process.exit(1); }, 60_000).unref();
process.argv = [process.argv[0], process.execPath, ...args];
require(loader);
`;

/**
 * Writes `client.cache` and `sandbox.cache` into `dir` for the bundles `loader` runs; `assets`
 * maps asset names to files. Returns the caches' files by bundle name.
 */
export function trainCodeCaches(loader, dir, assets) {
  const work = mkdtempSync(join(tmpdir(), "msgctl-train-"));
  const trainer = join(work, "train.cjs");
  writeFileSync(trainer, TRAINER);
  // The native parts extract into a cache folder of the training's own.
  const env = { ...process.env, XDG_CACHE_HOME: work, NO_COLOR: "1" };
  const serveArgs = ["serve", "--json", "--quiet", "--db", ":memory:", "--port", "0", "--otp-port", "0"];
  const server = spawn(
    process.execPath,
    [trainer, loader, "serve", dir, JSON.stringify(assets), ...serveArgs, "--clock", "manual", "--no-state-file"],
    { env, stdio: ["ignore", "pipe", "inherit", "ipc"] },
  );
  createInterface({ input: server.stdout }).resume();
  return new Promise((done, fail) => {
    server.once("exit", (code) => fail(new Error(`training the sandbox's code cache failed (exit ${code})`)));
    server.once("message", (ready) => {
      const client = spawnSync(
        process.execPath,
        [
          trainer,
          loader,
          "client",
          dir,
          JSON.stringify(assets),
          "clock",
          "--json",
          "--base-url",
          ready.base_url,
        ].concat(["--api-key", ready.accounts[0].api_key]),
        { env, stdio: ["ignore", "ignore", "inherit"], timeout: 90_000 },
      );
      server.removeAllListeners("exit");
      server.once("exit", () => {
        rmSync(work, { recursive: true, force: true });
        if (client.status !== 0)
          fail(new Error(`training the client's code cache failed (exit ${client.status ?? client.signal})`));
        else done({ client: join(dir, "client.cache"), sandbox: join(dir, "sandbox.cache") });
      });
      server.kill("SIGTERM");
    });
  });
}
