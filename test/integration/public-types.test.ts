import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The package's declarations as a user's TypeScript project sees them: built with the project's
 * own build config, installed as `msgctl` beside its one type dependency (zod), and compiled with
 * `skipLibCheck: false`, so every declaration file the consumer reaches is checked too.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

const CONSUMER = `
import { createClient, EVENT_TYPES, startSandbox, verifyWebhook, type ChaosLogEntry, type ChaosStatus, type ChallengeResource, type EventType, type EventView, type MessageResource, type TextOutcome } from "msgctl";

const sandbox = await startSandbox({ clock: "manual" });
const { message } = await sandbox.client.messages.send({ to: "+14155550191", from_handle: "+14155550101", text: "hi" });
const status: MessageResource["status"] = message.status;

// waitForEvent narrows the payload by event name.
const read = await sandbox.waitForEvent("message.read", { match: { message_id: message.id } });
const readAt: string | undefined = read.payload.read_at;
const received = await sandbox.waitForEvent("message.received");
const hasMedia: boolean = received.payload.has_attachments;
const typing = await sandbox.waitForEvent("conversation.typing", { match: (payload) => payload.typing });
const isTyping: boolean = typing.payload.typing;

// @ts-expect-error an unknown event name does not type-check
await sandbox.waitForEvent("message.redd");
// @ts-expect-error a field of another event's payload does not type-check
await sandbox.waitForEvent("message.read", { match: { typing: true } });

const names: readonly EventType[] = EVENT_TYPES;
const views: EventView[] = sandbox.events();
const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey });
const page = await client.messages.list({ limit: 10 });
const verified = verifyWebhook("{}", "t=1,v1=00", "whsec_x");
// The OTP service and the user's side of it.
const challenge = await sandbox.otp.create("+14155550123");
const texted = await sandbox.otp.text(challenge.id, { wrong: true, channel: "whatsapp" });
const outcome: TextOutcome = texted.outcome;
const replyText: string | undefined = texted.reply?.text;
const consumed: ChallengeResource = await sandbox.otp.consume(challenge.id);
// @ts-expect-error a channel the service does not have
await sandbox.otp.text(challenge.id, { channel: "fax" });

// Seeded chaos: on at the start or later, its status and its log.
const chaotic = await startSandbox({ chaos: { seed: 42, profile: "rough" } });
const chaos: ChaosStatus = await chaotic.chaos.on({ seed: "ci-run-7" });
const decisions: ChaosLogEntry[] = (await chaotic.chaos.log({ order: "desc", limit: 10 })).data;
// @ts-expect-error a profile that does not exist
await chaotic.chaos.on({ seed: 1, profile: "wild" });
await chaotic.stop();

await sandbox.clock.advance("1h");
await sandbox.stop();
export { status, readAt, hasMedia, isTyping, names, views, page, verified, outcome, replyText, consumed, chaos, decisions };
`;

describe("the package's public types (a consumer with skipLibCheck: false)", () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "msgctl-consumer-"));
    const pkg = join(dir, "node_modules/msgctl");
    execFileSync(
      process.execPath,
      [TSC, "-p", join(ROOT, "tsconfig.build.json"), "--declarationDir", join(pkg, "types")],
      { cwd: ROOT },
    );
    writeFileSync(
      join(pkg, "package.json"),
      JSON.stringify({ name: "msgctl", type: "module", exports: { ".": { types: "./types/index.d.ts" } } }),
    );
    symlinkSync(join(ROOT, "node_modules/zod"), join(dir, "node_modules/zod"));
    mkdirSync(join(dir, "node_modules/@types"));
    cpSync(join(ROOT, "node_modules/@types/node"), join(dir, "node_modules/@types/node"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules/undici-types"), join(dir, "node_modules/undici-types"));
    writeFileSync(join(dir, "consumer.ts"), CONSUMER);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          types: ["node"],
        },
        files: ["consumer.ts"],
      }),
    );
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  }, 120_000);

  it("compiles, with payloads narrowed by event name and unknown names refused", () => {
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, "-p", dir], { cwd: dir, encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  }, 120_000);
});
