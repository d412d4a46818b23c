import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/index.js";

/**
 * Settings without JavaScript (docs/sandbox.md, "Fixtures"; docs/control-api.md, "Settings"): a
 * fixture's `settings` seed them, `startSandbox({ settings })` goes over the fixture's, and they
 * are kept in the database: a restart keeps them, a reset goes back to the fixture's.
 */

const shipped = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../fixtures/default.json"), "utf8"));
const withSettings = (settings: object) => ({ ...shipped, settings });
const FROM = "+14155550101";
const TO = "+14155550191";

describe("a fixture's settings", () => {
  it("send_latency_ms 1000 on the manual clock: not sent at 999 ms, sent at 1000 ms", async () => {
    const sb = await startSandbox({ fixture: withSettings({ send_latency_ms: 1000 }) });
    try {
      const { message } = await sb.client.messages.send({ from_handle: FROM, to: TO, text: "slow" });
      await sb.clock.advance(999);
      expect((await sb.client.messages.get(message.id)).status).toBe("queued");
      await sb.clock.advance(1);
      expect((await sb.client.messages.get(message.id)).status).toBe("sent");
    } finally {
      await sb.stop();
    }
  });

  it("deliver_latency_ms and read_delay_ms likewise, and the rest as documented", async () => {
    const sb = await startSandbox({
      fixture: withSettings({
        send_latency_ms: 0,
        deliver_latency_ms: 250,
        read_delay_ms: 4000,
        media_cap_bytes: { sms: 500 },
      }),
    });
    try {
      const { message } = await sb.client.messages.send({ from_handle: FROM, to: TO, text: "timed" });
      await sb.clock.advance(249);
      expect((await sb.client.messages.get(message.id)).status).toBe("sent");
      await sb.clock.advance(1);
      expect((await sb.client.messages.get(message.id)).status).toBe("delivered");
      await sb.clock.advance(3999);
      expect((await sb.client.messages.get(message.id)).status).toBe("delivered");
      await sb.clock.advance(1);
      expect((await sb.client.messages.get(message.id)).status).toBe("read");
      expect(await sb.settings.get()).toMatchObject({
        send_latency_ms: 0,
        deliver_latency_ms: 250,
        read_delay_ms: 4000,
        media_cap_bytes: { imessage: 104857600, sms: 500, whatsapp: 16777216 },
      });
    } finally {
      await sb.stop();
    }
  });

  it("startSandbox({ settings }) goes over the fixture's, and a reset keeps both", async () => {
    const sb = await startSandbox({
      fixture: withSettings({ send_latency_ms: 1000, read_delay_ms: 3000 }),
      settings: { sendLatencyMs: 50, mediaCapBytes: { whatsapp: 1_000_000 } },
    });
    try {
      const expected = { send_latency_ms: 50, read_delay_ms: 3000, media_cap_bytes: { whatsapp: 1_000_000 } };
      expect(await sb.settings.get()).toMatchObject(expected);
      await sb.settings.update({ send_latency_ms: 7, deliver_latency_ms: 9 });
      await sb.reset();
      expect(await sb.settings.get()).toMatchObject({ ...expected, deliver_latency_ms: 500 });
    } finally {
      await sb.stop();
    }
  });
});

describe("settings kept in the database", () => {
  it("survive a restart on the same file; the fixture seeds them only into an empty database", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-settings-")), "sandbox.db");
    const first = await startSandbox({ db, fixture: withSettings({ send_latency_ms: 1000 }) });
    await first.settings.update({ media_cap_bytes: { sms: 2_000_000 }, strict_urls: true });
    await first.stop();

    const second = await startSandbox({ db, fixture: withSettings({ send_latency_ms: 5 }) });
    try {
      expect(await second.settings.get()).toMatchObject({
        send_latency_ms: 1000,
        media_cap_bytes: { sms: 2_000_000 },
        strict_urls: true,
      });
      // And they are what the sandbox follows.
      const { message } = await second.client.messages.send({ from_handle: FROM, to: TO, text: "after restart" });
      await second.clock.advance(999);
      expect((await second.client.messages.get(message.id)).status).toBe("queued");
    } finally {
      await second.stop();
    }
  });
});

describe("settings in a snapshot", () => {
  it("a restore brings back the settings the snapshot was saved with, and the sandbox follows them", async () => {
    const sb = await startSandbox();
    try {
      await sb.settings.update({ send_latency_ms: 1000, media_cap_bytes: { sms: 500 } });
      await sb.snapshot("slow");
      await sb.settings.update({ send_latency_ms: 5, media_cap_bytes: { sms: 2_000_000 } });
      await sb.restore("slow");
      expect(await sb.settings.get()).toMatchObject({ send_latency_ms: 1000, media_cap_bytes: { sms: 500 } });
      const { message } = await sb.client.messages.send({ from_handle: FROM, to: TO, text: "restored" });
      await sb.clock.advance(999);
      expect((await sb.client.messages.get(message.id)).status).toBe("queued");
      await sb.clock.advance(1);
      expect((await sb.client.messages.get(message.id)).status).toBe("sent");
    } finally {
      await sb.stop();
    }
  });
});
