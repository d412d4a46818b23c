import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";

/**
 * Settings without JavaScript, end to end over the real CLI: a fixture's `settings` under `serve`,
 * `msgctl settings` and `settings set KEY VALUE`, `accounts create --whatsapp`.
 */

const dir = mkdtempSync(join(tmpdir(), "msgctl-settings-e2e-"));
const shipped = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../fixtures/default.json"), "utf8"));
const fixture = join(dir, "slow.json");
writeFileSync(
  fixture,
  JSON.stringify({ ...shipped, settings: { send_latency_ms: 1000, media_cap_bytes: { sms: 500000 } } }),
);

describe("serve --fixture with settings, and msgctl settings", () => {
  const { cli, json } = useServe(["--fixture", fixture]);

  it("the fixture's send_latency_ms holds on the manual clock: not sent at 999 ms, sent at 1000 ms", async () => {
    const sent = await json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "slow");
    await json("clock", "advance", "999ms");
    expect((await json("messages", "get", sent.id)).status).toBe("queued");
    await json("clock", "advance", "1ms");
    expect((await json("messages", "get", sent.id)).status).toBe("sent");
  });

  it("msgctl settings prints every setting: --json the object, people one line each with dotted keys", async () => {
    expect(await json("settings")).toMatchObject({
      send_latency_ms: 1000,
      deliver_latency_ms: 500,
      media_cap_bytes: { imessage: 104857600, sms: 500000, whatsapp: 16777216 },
      ffmpeg_path: "ffmpeg",
      strict_urls: false,
    });
    const human = await cli("settings");
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^send_latency_ms\s+1000$/m);
    expect(human.stdout).toMatch(/^media_cap_bytes\.sms\s+500000$/m);
  });

  it("settings set KEY VALUE: dotted keys, VALUE as JSON when it parses, else as text", async () => {
    expect((await json("settings", "set", "media_cap_bytes.whatsapp", "2000000")).media_cap_bytes).toEqual({
      imessage: 104857600,
      sms: 500000,
      whatsapp: 2000000,
    });
    expect((await json("settings", "set", "strict_urls", "true")).strict_urls).toBe(true);
    expect((await json("settings", "set", "ffmpeg_path", "/opt/ffmpeg/bin/ffmpeg")).ffmpeg_path).toBe(
      "/opt/ffmpeg/bin/ffmpeg",
    );
    expect((await json("settings", "set", "ffmpeg_path", "null")).ffmpeg_path).toBe(null);
    await json("settings", "set", "strict_urls", "false");
  });

  it("a bad key or value: exit 1 with the sandbox's message naming it; a malformed key: exit 2", async () => {
    const unknown = await cli("settings", "set", "send_latency", "5");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/invalid_request.*send_latency/);
    const bad = await cli("settings", "set", "read_delay_ms", "soon");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("read_delay_ms: must be a number, not a string");
    expect((await cli("settings", "set", "media_cap_bytes..sms", "5")).code).toBe(2);
  });

  it("accounts create --whatsapp cloud adds a WhatsApp Cloud API number; another kind is a usage error", async () => {
    const account = await json("accounts", "create", "--whatsapp", "cloud");
    expect(account.numbers).toEqual([
      expect.objectContaining({ channels: ["imessage", "sms"] }),
      expect.objectContaining({ channels: ["whatsapp"], whatsapp_api: "cloud" }),
    ]);
    const human = await cli("accounts", "create", "--whatsapp", "linked");
    expect(human.stdout).toMatch(/numbers\s+\+\d+, \+\d+ \(whatsapp linked\)/);
    expect((await cli("accounts", "create", "--whatsapp", "business")).code).toBe(2);
  });
});

describe("serve refuses a fixture with a bad setting", () => {
  it("naming the file and the field, writing nothing", async () => {
    const fresh = mkdtempSync(join(tmpdir(), "msgctl-bad-setting-"));
    const bad = join(fresh, "bad.json");
    writeFileSync(bad, JSON.stringify({ ...shipped, settings: { send_latency_ms: -1 } }));
    const result = await runCli(["serve", "--fixture", bad, "--port", "0", "--otp-port", "0"], { cwd: fresh });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${bad}: settings.send_latency_ms: must be at least 0`);
    expect(existsSync(join(fresh, ".msgctl"))).toBe(false);
  });
});
