import { z } from "zod";

/** Tunable behaviour of the simulated world, with the documented defaults (docs/simulated-world.md). */
export interface Settings {
  /** Queue to `sent` (about 200 ms). */
  sendLatencyMs: number;
  /** `sent` to `delivered` (about 500 ms). */
  deliverLatencyMs: number;
  /** `delivered` to `read` where read receipts are on (about 2 s). */
  readDelayMs: number;
  /** Media caps per channel, bytes. */
  mediaCapBytes: { imessage: number; sms: number; whatsapp: number };
  /** Largest JSON body the hosts accept, bytes. */
  maxJsonBodyBytes: number;
  /** Largest uploaded file, bytes. */
  maxUploadBytes: number;
  /**
   * ffmpeg for video over a cap: a path, or a command name looked up on PATH (default `ffmpeg`;
   * none found there: the transcode is simulated); null never runs ffmpeg (always simulated).
   */
  ffmpegPath: string | null;
  /** The webhook acknowledgement timeout, real milliseconds (spec section 6: 10 s). */
  webhookTimeoutMs: number;
  /** Webhook URLs follow spec 4.4 to the letter, loopback rejected too (`serve --strict-urls`). */
  strictUrls: boolean;
}

/** Settings as `startSandbox({ settings })` takes them: any subset, media caps merged. */
export type SettingsOverrides = Partial<Omit<Settings, "mediaCapBytes">> & {
  mediaCapBytes?: Partial<Settings["mediaCapBytes"]>;
};

/** The settings as the control API and the fixture name them (snake_case), each with its own. */
export const SETTING_NAMES = {
  sendLatencyMs: "send_latency_ms",
  deliverLatencyMs: "deliver_latency_ms",
  readDelayMs: "read_delay_ms",
  mediaCapBytes: "media_cap_bytes",
  maxJsonBodyBytes: "max_json_body_bytes",
  maxUploadBytes: "max_upload_bytes",
  ffmpegPath: "ffmpeg_path",
  webhookTimeoutMs: "webhook_timeout_ms",
  strictUrls: "strict_urls",
} as const satisfies Record<keyof Settings, string>;

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** A week: a latency past it is a typo, and would push work past what a day of advancing shows. */
const MAX_LATENCY_MS = 7 * 24 * 3_600_000;

const milliseconds = z.number().int().min(0).max(MAX_LATENCY_MS);
const bytes = z
  .number()
  .int()
  .min(1)
  .max(2 * GiB);
const mediaCaps = { imessage: bytes, sms: bytes, whatsapp: bytes };
/**
 * At least 1 KiB: a smaller limit would refuse the very request that sets it back (the PATCH of
 * the settings is a JSON body too).
 */
const jsonBodyBytes = z
  .number()
  .int()
  .min(1024)
  .max(100 * MiB);
const ffmpegPath = z.string().min(1).max(4_096).nullable().meta({
  description: "a path, or a command name looked up on PATH; null never runs ffmpeg (video transcodes are simulated)",
});
const webhookTimeoutMs = z.number().int().min(1).max(300_000);

/** `{ settings }` as `startSandbox` takes them (camelCase): known keys only, each in range. */
export const settingsOverrides = z.strictObject({
  settings: z
    .strictObject({
      sendLatencyMs: milliseconds,
      deliverLatencyMs: milliseconds,
      readDelayMs: milliseconds,
      mediaCapBytes: z.strictObject(mediaCaps).partial(),
      maxJsonBodyBytes: jsonBodyBytes,
      maxUploadBytes: bytes,
      ffmpegPath,
      webhookTimeoutMs,
      strictUrls: z.boolean(),
    })
    .partial(),
});

/** Every setting with its current value (GET /sandbox/v1/settings). */
export const settingsView = z
  .object({
    send_latency_ms: milliseconds.meta({ description: "queued → first send attempt (and an action's); default 200" }),
    deliver_latency_ms: milliseconds.meta({ description: "sent → delivered; default 500" }),
    read_delay_ms: milliseconds.meta({ description: "delivered → read, where read receipts are on; default 2000" }),
    media_cap_bytes: z.object(mediaCaps).meta({
      description: "media caps per channel, bytes; default iMessage 100 MiB, SMS/MMS 1 MiB, WhatsApp 16 MiB",
    }),
    max_json_body_bytes: jsonBodyBytes.meta({ description: "largest JSON body either host accepts; default 1 MiB" }),
    max_upload_bytes: bytes.meta({ description: "largest uploaded file; default 100 MiB" }),
    ffmpeg_path: ffmpegPath.meta({
      description:
        'ffmpeg for video over a cap: a path, or a command name looked up on PATH (none there: simulated); null never runs ffmpeg; default "ffmpeg"',
    }),
    webhook_timeout_ms: webhookTimeoutMs.meta({
      description: "how long a delivery waits for the receiver's answer, real time; default 10000",
    }),
    strict_urls: z.boolean().meta({ description: "webhook URLs on loopback are refused too; default false" }),
  })
  .meta({ id: "Settings", description: "The simulated world's settings" });
/** Every setting with its current value. */
export type SettingsView = z.output<typeof settingsView>;

/**
 * Settings to change (PATCH /sandbox/v1/settings, and a fixture's `settings`): any subset,
 * unknown keys refused; `media_cap_bytes` merges with the caps in force.
 */
export const settingsPatch = z
  .strictObject({
    send_latency_ms: milliseconds.optional(),
    deliver_latency_ms: milliseconds.optional(),
    read_delay_ms: milliseconds.optional(),
    media_cap_bytes: z.strictObject(mediaCaps).partial().optional(),
    max_json_body_bytes: jsonBodyBytes.optional(),
    max_upload_bytes: bytes.optional(),
    ffmpeg_path: ffmpegPath.optional(),
    webhook_timeout_ms: webhookTimeoutMs.optional(),
    strict_urls: z.boolean().optional(),
  })
  .meta({ id: "SettingsPatch", description: "Settings to change: any subset; media_cap_bytes merges" });
/** Settings to change, as a client sends them. */
export type SettingsPatch = z.input<typeof settingsPatch>;
