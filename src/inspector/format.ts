/** How the page writes times, durations, reactions and effects. */

const time = new Intl.DateTimeFormat(undefined, {
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
});
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
});

/** A sandbox timestamp as a time of day (UTC, like every sandbox timestamp). */
export const timeOf = (iso: string | null | undefined) => (iso ? time.format(new Date(iso)) : "");

/** A sandbox timestamp with its date (UTC). */
export const dateTimeOf = (iso: string | number | null | undefined) =>
  iso === null || iso === undefined ? "" : `${dateTime.format(new Date(iso))} UTC`;

/** Milliseconds as people say them: 5 s, 1 m, 10 m 30 s, 4 h, 1 d 2 h. */
export function durationOf(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  const parts: string[] = [];
  let seconds = Math.round(ms / 1_000);
  for (const [unit, size] of [
    ["d", 86_400],
    ["h", 3_600],
    ["m", 60],
    ["s", 1],
  ] as const) {
    if (seconds >= size) {
      parts.push(`${Math.floor(seconds / size)} ${unit}`);
      seconds %= size;
    }
  }
  return parts.slice(0, 2).join(" ");
}

/** A countdown to a sandbox instant: "in 4 m 10 s", or "passed". */
export const untilOf = (target: number, now: number) => (target > now ? `in ${durationOf(target - now)}` : "passed");

/** The named reactions (spec 4.3) as the emoji phones draw them. */
const NAMED_REACTIONS: Record<string, string> = {
  love: "❤️",
  like: "👍",
  dislike: "👎",
  laugh: "😂",
  emphasize: "‼️",
  question: "❓",
};

/** The reactions the page offers to send. */
export const REACTION_CHOICES = Object.keys(NAMED_REACTIONS);

/** A reaction as drawn: a named one's emoji, or the emoji itself. */
export const reactionGlyph = (reaction: string) => NAMED_REACTIONS[reaction] ?? reaction;

/** iMessage effect ids people know by name. */
const EFFECTS: Record<string, string> = {
  "com.apple.MobileSMS.expressivesend.impact": "Slam",
  "com.apple.MobileSMS.expressivesend.loud": "Loud",
  "com.apple.MobileSMS.expressivesend.gentle": "Gentle",
  "com.apple.MobileSMS.expressivesend.invisibleink": "Invisible Ink",
  "com.apple.messages.effect.CKConfettiEffect": "Confetti",
  "com.apple.messages.effect.CKFireworksEffect": "Fireworks",
  "com.apple.messages.effect.CKHeartEffect": "Love",
  "com.apple.messages.effect.CKLasersEffect": "Lasers",
  "com.apple.messages.effect.CKShootingStarEffect": "Shooting Star",
  "com.apple.messages.effect.CKSparklesEffect": "Sparkles",
  "com.apple.messages.effect.CKSpotlightEffect": "Spotlight",
  "com.apple.messages.effect.CKHappyBirthdayEffect": "Balloons",
  "com.apple.messages.effect.CKEchoEffect": "Echo",
};

/** The effects the page offers to send, by id. */
export const EFFECT_CHOICES = Object.entries(EFFECTS);

/** An effect's name, or its id when it has none. */
export const effectName = (effect: string) => EFFECTS[effect] ?? effect;

/** A channel's name as phones show it. */
export const channelName = (channel: string | null) =>
  channel === "imessage"
    ? "iMessage"
    : channel === "sms"
      ? "SMS"
      : channel === "whatsapp"
        ? "WhatsApp"
        : "not sent yet";

/** Bytes as people read them. */
export function sizeOf(bytes: number): string {
  if (bytes < 1_024) return `${bytes} B`;
  if (bytes < 1_048_576) return `${(bytes / 1_024).toFixed(1)} KiB`;
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}

/** Seconds of audio as a player shows them: 0:04, 12:30. */
export const clockOf = (seconds: number) =>
  `${Math.floor(seconds / 60)}:${String(Math.round(seconds % 60)).padStart(2, "0")}`;
