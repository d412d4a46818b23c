import { z } from "zod";

/** Tunable behaviour of the simulated world, with the documented defaults (docs/simulated-world.md). */
export interface Settings {
  /** Queue to `sent` (SANDBOX.md section 3: about 200 ms). */
  sendLatencyMs: number;
  /** `sent` to `delivered` (about 500 ms). */
  deliverLatencyMs: number;
  /** `delivered` to `read` where read receipts are on (about 2 s). */
  readDelayMs: number;
  /** Media caps per channel, bytes (SANDBOX.md section 5). */
  mediaCapBytes: { imessage: number; sms: number; whatsapp: number };
  /** Largest JSON body the hosts accept, bytes. */
  maxJsonBodyBytes: number;
  /** Largest uploaded file, bytes. */
  maxUploadBytes: number;
  /** ffmpeg for video over a cap: a path, null to simulate the transcode, unset to look on PATH. */
  ffmpegPath?: string | null;
  /** The webhook acknowledgement timeout, real milliseconds (spec section 6). */
  webhookTimeoutMs: number;
  /** `--strict-urls`: webhook URLs follow spec 4.4 to the letter, loopback rejected too. */
  strictUrls: boolean;
}

const milliseconds = z.number().int().min(0);
const bytes = z.number().int().min(1);

/** `{ settings }` as `startSandbox` takes them: known keys only, each in range. */
export const settingsOverrides = z.strictObject({
  settings: z
    .strictObject({
      sendLatencyMs: milliseconds,
      deliverLatencyMs: milliseconds,
      readDelayMs: milliseconds,
      mediaCapBytes: z.strictObject({ imessage: bytes, sms: bytes, whatsapp: bytes }),
      maxJsonBodyBytes: bytes,
      maxUploadBytes: bytes,
      ffmpegPath: z.string().min(1).nullable(),
      webhookTimeoutMs: z.number().int().min(1),
      strictUrls: z.boolean(),
    })
    .partial(),
});
