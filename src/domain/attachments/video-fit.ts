import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { delimiter, join } from "node:path";
import type { DomainContext } from "../core/index.js";

/** What fitting a video answers. */
export type VideoFit =
  | { kind: "transcoded"; path: string; size: number }
  | { kind: "simulated" }
  | { kind: "too_large"; smallestBytes: number }
  | { kind: "failed"; error: string };

/** Commands looked up on PATH so far, by name: the file found, or null. */
const onPath = new Map<string, string | null>();

/** The file `name` runs from on PATH (as a shell would find it), looked up once; null when there is none. */
function lookUpOnPath(name: string): string | null {
  let found = onPath.get(name);
  if (found === undefined) {
    found = null;
    const file = process.platform === "win32" && !/\.exe$/i.test(name) ? `${name}.exe` : name;
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      const candidate = join(dir, file);
      if (dir && existsSync(candidate)) {
        found = candidate;
        break;
      }
    }
    onPath.set(name, found);
  }
  return found;
}

/**
 * The ffmpeg to use: the setting's path, or its command name looked up on PATH (none there: null,
 * the transcode is simulated); null when the setting says never to run one.
 */
function ffmpegFor(ctx: DomainContext): string | null {
  const setting = ctx.settings.ffmpegPath;
  if (setting === null) return null;
  return /[\\/]/.test(setting) ? setting : lookUpOnPath(setting);
}

function run(ffmpeg: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(ffmpeg, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      if (stderr.length < 4_000) stderr += String(chunk);
    });
    child.on("error", (error) => resolve(error.message));
    child.on("close", (code) =>
      resolve(code === 0 ? undefined : stderr.trim().split("\n").at(-1) || `ffmpeg exited with ${code}`),
    );
  });
}

/**
 * Fits a video under `capBytes`: with ffmpeg where there is one
 * (H.264 + AAC in MP4, at most 1280 px wide, the bitrate the cap allows over the duration, up to
 * three tries halving it), else simulated: no copy is made and the size the copy would have had
 * (90 % of the cap) is recorded, so machines without ffmpeg still send video over a cap.
 */
export async function fitVideo(
  ctx: DomainContext,
  input: string,
  capBytes: number,
  durationSeconds: number | null,
): Promise<VideoFit> {
  const ffmpeg = ffmpegFor(ctx);
  if (!ffmpeg) return { kind: "simulated" };
  // Bits the cap allows, with room for the container; the audio takes 64 kbit/s.
  const budget = capBytes * 8 * 0.85;
  let videoBitrate = durationSeconds ? Math.max(32_000, budget / durationSeconds - 64_000) : 500_000;
  let smallest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const output = ctx.blobs.scratchPath(".mp4");
    const kbps = Math.floor(videoBitrate / 1000);
    const error = await run(ffmpeg, [
      "-hide_banner",
      "-loglevel",
      "error",
      "-y",
      "-i",
      input,
      "-vf",
      "scale='min(1280,iw)':-2",
      "-c:v",
      "libx264",
      "-preset",
      "veryfast",
      "-b:v",
      `${kbps}k`,
      "-maxrate",
      `${kbps}k`,
      "-bufsize",
      `${2 * kbps}k`,
      "-c:a",
      "aac",
      "-b:a",
      "64k",
      "-movflags",
      "+faststart",
      // Without a duration the bitrate is a guess: the size limit makes sure of the cap.
      ...(durationSeconds ? [] : ["-fs", String(capBytes)]),
      output,
    ]);
    if (error) {
      await rm(output, { force: true });
      return { kind: "failed", error: `ffmpeg could not transcode it: ${error}` };
    }
    const size = statSync(output).size;
    if (size <= capBytes) return { kind: "transcoded", path: output, size };
    smallest = Math.min(smallest, size);
    await rm(output, { force: true });
    videoBitrate /= 2;
  }
  return { kind: "too_large", smallestBytes: smallest };
}
