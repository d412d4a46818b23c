import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../src/index.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";

/**
 * The single binary (`npm run build:binary`), built here and run as a user would: `serve`, a
 * send, a signed webhook delivery to a local receiver, the CLI against it. Its native SQLite addon
 * and the shipped fixture come from the binary's assets, in a cache folder of this test's own.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const BINARY = join(ROOT, "dist/bin/msgctl");
const KEY = "sk_test_acme_0000000000000000";

describe("the single binary", () => {
  let serve: ChildProcess;
  let ready: { base_url: string; otp_url: string };
  let receiver: Receiver;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: "1",
    XDG_CACHE_HOME: mkdtempSync(join(tmpdir(), "msgctl-cache-")),
  };
  // Asynchronous: the receiver in this process must answer while a command waits on it.
  const cli = async (...args: string[]) =>
    (
      await promisify(execFile)(
        BINARY,
        [...args, "--base-url", ready.base_url, "--otp-url", ready.otp_url, "--api-key", KEY],
        { env, encoding: "utf8" },
      )
    ).stdout;

  const nativeRoot = join(env.XDG_CACHE_HOME, "msgctl/native");
  /** Cache folders of other builds, made before the binary first runs. */
  const otherBuilds = {
    unused: "0000000000000001",
    // Marked in use by a live process (this test's own): the binary must leave it.
    inUse: "0000000000000002",
    // Marked by a process that is gone: the mark counts for nothing.
    deadMark: "0000000000000003",
  };
  let build: { status: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    build = spawnSync(process.execPath, [join(ROOT, "scripts/build-binary.mjs")], { cwd: ROOT, encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
    for (const name of Object.values(otherBuilds)) {
      mkdirSync(join(nativeRoot, name), { recursive: true });
      writeFileSync(join(nativeRoot, name, "better_sqlite3.node"), "an older build");
    }
    writeFileSync(join(nativeRoot, otherBuilds.inUse, `.in-use.${process.pid}`), "");
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    writeFileSync(join(nativeRoot, otherBuilds.deadMark, `.in-use.${gone.stdout.trim()}`), "");
    receiver = await startReceiver();
    serve = spawn(
      BINARY,
      [
        "serve",
        "--json",
        "--quiet",
        "--db",
        ":memory:",
        "--port",
        "0",
        "--otp-port",
        "0",
        "--clock",
        "manual",
        "--no-state-file",
      ],
      { env, stdio: ["ignore", "pipe", "inherit"] },
    );
    const line = await new Promise<string>((done) =>
      createInterface({ input: serve.stdout as NodeJS.ReadableStream }).once("line", done),
    );
    ready = JSON.parse(line);
  }, 120_000);

  afterAll(async () => {
    serve?.kill("SIGTERM");
    await receiver?.close();
  });

  it("serves both hosts: /healthz 200 on each", async () => {
    expect((await fetch(`${ready.base_url}/healthz`)).status).toBe(200);
    expect((await fetch(`${ready.otp_url}/healthz`)).status).toBe(200);
  });

  it("sends a message and delivers its events, signed, to a local webhook", async () => {
    const hook = JSON.parse(await cli("webhooks", "create", "--url", `${receiver.url}/hook`, "--json"));
    const message = JSON.parse(
      await cli("send", "--from", "+14155550101", "--to", "+14155550191", "--text", "from the binary", "--json"),
    );
    expect(message).toMatchObject({ status: "queued", text: "from the binary" });
    await cli("clock", "advance", "3s");
    const sent = receiver.requests.find((r) => JSON.parse(r.body).type === "message.sent");
    expect(sent).toBeDefined();
    const verdict = verifyWebhook(sent?.body ?? "", sent?.headers["x-service-signature"] as string, hook.secret);
    expect(verdict.ok).toBe(true);
    expect(JSON.parse(await cli("messages", "get", message.id, "--json")).status).toBe("read");
  });

  it("uploads and serves attachments; an image over a cap is really transcoded (sharp carried in the binary)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-binary-media-"));
    const photo = join(dir, "photo.png");
    // Noise does not compress: a 1000×800 PNG of it is over the SMS/MMS cap of 1 MiB.
    const { default: sharp } = await import("sharp");
    const noise = Buffer.from(Array.from({ length: 1000 * 800 * 3 }, () => Math.floor(Math.random() * 256)));
    await sharp(noise, { raw: { width: 1000, height: 800, channels: 3 } })
      .png()
      .toFile(photo);
    const message = JSON.parse(
      await cli("send", "--from", "+14155550101", "--to", "+14155550173", "--attach", photo, "--json"),
    );
    expect(message.attachments[0]).toMatchObject({ filename: "photo.png", mime_type: "image/png" });
    expect(message.attachments[0].size_bytes).toBeGreaterThan(1_048_576);
    await cli("clock", "advance", "1s");
    const after = JSON.parse(await cli("messages", "get", message.id, "--json"));
    expect(after.status).toBe("delivered");
    expect(after.attachments[0].delivery).toMatchObject({ decision: "transcoded", transcoder: "sharp" });
    const bytes = Buffer.from(await (await fetch(after.attachments[0].url)).arrayBuffer());
    expect(bytes.length).toBeLessThanOrEqual(1_048_576);
    expect(bytes.length).toBe(after.attachments[0].size_bytes);
    // A JPEG that decodes.
    expect((await sharp(bytes).metadata()).format).toBe("jpeg");
  });

  it("serves the inspector from its assets: the page at /, its script and style", async () => {
    const page = await fetch(`${ready.base_url}/`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('<div id="app">');
    const files = [...html.matchAll(/\/inspector\/(app-[A-Z0-9]+\.(?:js|css))/g)].map((match) => match[1]);
    expect(files).toHaveLength(2);
    for (const file of files) {
      const res = await fetch(`${ready.base_url}/inspector/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(file?.endsWith(".js") ? /^text\/javascript/ : /^text\/css/);
      expect((await res.text()).length).toBeGreaterThan(1_000);
    }
  });

  it("builds quietly: one line naming the binary, nothing on stderr", () => {
    expect(build.stderr).toBe("");
    expect(build.stdout.trim()).toMatch(/^\S+dist\/bin\/msgctl \(\d+ MB\)$/);
  });

  it("answers --version with the version and the commit it was built from", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    expect(execFileSync(BINARY, ["--version"], { env, encoding: "utf8" }).trim()).toMatch(
      new RegExp(`^${version.replaceAll(".", "\\.")} \\(commit ${commit}(-dirty)?\\)$`),
    );
  });

  it("keeps in its native cache only its own build's folder and those a running msgctl uses", () => {
    const folders = readdirSync(nativeRoot).sort();
    expect(folders).toHaveLength(2);
    expect(folders).toContain(otherBuilds.inUse);
    const own = folders.find((name) => name !== otherBuilds.inUse) ?? "";
    expect(own).toMatch(/^[0-9a-f]{16}$/);
    expect(existsSync(join(nativeRoot, own, "better_sqlite3.node"))).toBe(true);
  });

  it("packs a release: the tarball holds msgctl, README.md and LICENSE in one folder; its .sha256 checks", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const name = `msgctl-${version}-${process.platform}-${process.arch}`;
    execFileSync(process.execPath, [join(ROOT, "scripts/release.mjs"), "--no-build"], { cwd: ROOT, stdio: "ignore" });
    const dir = join(ROOT, "dist/release");
    expect(readFileSync(join(dir, `${name}.tar.gz.sha256`), "utf8")).toMatch(
      new RegExp(`^[0-9a-f]{64}  ${name}\\.tar\\.gz\\n$`),
    );
    expect(spawnSync("sha256sum", ["-c", `${name}.tar.gz.sha256`], { cwd: dir, encoding: "utf8" }).stdout).toBe(
      `${name}.tar.gz: OK\n`,
    );
    const listing = execFileSync("tar", ["-tzvf", `${name}.tar.gz`], { cwd: dir, encoding: "utf8" });
    const entries = listing.trim().split("\n");
    expect(entries.map((line) => line.split(/\s+/).at(-1)).sort()).toEqual(
      [`${name}/`, `${name}/LICENSE`, `${name}/README.md`, `${name}/msgctl`].sort(),
    );
    expect(entries.find((line) => line.endsWith(`${name}/msgctl`))).toMatch(/^-rwxr-xr-x/);
    // The binary inside is the one built here and runs from where it is unpacked.
    const unpacked = mkdtempSync(join(tmpdir(), "msgctl-release-"));
    execFileSync("tar", ["-xzf", join(dir, `${name}.tar.gz`)], { cwd: unpacked });
    expect(execFileSync(join(unpacked, name, "msgctl"), ["--version"], { env, encoding: "utf8" })).toMatch(
      new RegExp(`^${version.replaceAll(".", "\\.")} \\(commit `),
    );
  }, 120_000);

  it("starts from the code caches trained at build time: V8 accepts each; a client command compiles no sandbox", () => {
    const report = { ...env, MSGCTL_CODE_CACHE: "report" };
    const client = spawnSync(BINARY, ["--version"], { env: report, encoding: "utf8" });
    expect(client.status).toBe(0);
    expect(client.stderr).toBe("code cache (client): accepted\n");
    const clock = spawnSync(BINARY, ["clock", "--json", "--base-url", ready.base_url, "--api-key", KEY], {
      env: report,
      encoding: "utf8",
    });
    expect(clock.status).toBe(0);
    expect(clock.stderr).toBe("code cache (client): accepted\n");
    const sandbox = spawnSync(BINARY, ["openapi"], { env: report, encoding: "utf8" });
    expect(sandbox.status).toBe(0);
    expect(sandbox.stderr).toBe("code cache (client): accepted\ncode cache (sandbox): accepted\n");
  });

  it("checkpoints a database file's WAL in a worker thread that loads SQLite from the binary's assets", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-binary-db-")), "sandbox.db");
    const child = spawn(
      BINARY,
      [
        "serve",
        "--json",
        "--quiet",
        "--db",
        db,
        "--port",
        "0",
        "--otp-port",
        "0",
        "--clock",
        "manual",
        "--no-state-file",
      ],
      { env, stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const line = await new Promise<string>((done) =>
        createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", done),
      );
      const base = JSON.parse(line).base_url as string;
      const send = async (i: number) => {
        const sent = await fetch(`${base}/v1/messages`, {
          method: "POST",
          headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ to: `+1415555${2000 + i}`, from_handle: "+14155550101", text: `m${i}` }),
        });
        expect(sent.status).toBe(202);
      };
      // The WAL-index header: mxFrame at byte 16, nBackfill at byte 96 (sqlite.org/walformat.html).
      const wal = () => {
        const header = readFileSync(`${db}-shm`).subarray(0, 100);
        return { frames: header.readUInt32LE(16), copied: header.readUInt32LE(96) };
      };
      // Each send commits once: the worker starts at the 64th commit. Past 1,000 frames SQLite's own
      // checkpoint would copy them all and the next write would start the WAL over; the worker
      // turns it off and copies without starting over (that waits for 8,192 frames). So ten more
      // commits past 1,000 frames find the WAL still growing only when the worker copies.
      let i = 0;
      while (i < 64 || wal().frames <= 1_000) {
        expect(i).toBeLessThan(2_000);
        await send(i++);
      }
      for (const end = i + 10; i < end; ) await send(i++);
      expect(wal().frames).toBeGreaterThan(1_000);
      await vi.waitFor(
        () => {
          const { frames, copied } = wal();
          expect(frames).toBeGreaterThan(1_000);
          expect(copied).toBe(frames);
        },
        { timeout: 10_000, interval: 50 },
      );
    } finally {
      child.kill("SIGTERM");
    }
  });
});
