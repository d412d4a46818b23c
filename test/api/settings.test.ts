import { describe, expect, it } from "vitest";
import { IPHONE, MAIN, resetBeforeEach, send, statusOf } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

/**
 * The simulated world's settings at run time: GET and PATCH /sandbox/v1/settings (docs/control-api.md,
 * "Settings"). Every key with its current value; any subset changes, nested caps merge; work
 * scheduled afterwards follows the new values; a bad key or value is 400 and changes nothing.
 */

const MiB = 1024 * 1024;

/** The documented defaults, as the control API names them. */
const DEFAULTS = {
  send_latency_ms: 200,
  deliver_latency_ms: 500,
  read_delay_ms: 2000,
  media_cap_bytes: { imessage: 100 * MiB, sms: 1 * MiB, whatsapp: 16 * MiB },
  max_json_body_bytes: 1 * MiB,
  max_upload_bytes: 100 * MiB,
  ffmpeg_path: "ffmpeg",
  webhook_timeout_ms: 10000,
  strict_urls: false,
};

describe("GET /sandbox/v1/settings", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("answers every setting with its current value, on both hosts", async () => {
    const res = await t.api("GET", "/sandbox/v1/settings");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(DEFAULTS);
    expect((await t.otp("GET", "/sandbox/v1/settings")).body.data).toEqual(DEFAULTS);
  });
});

describe("PATCH /sandbox/v1/settings", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("changes any subset and answers every setting; media_cap_bytes merges with the caps in force", async () => {
    const res = await t.api("PATCH", "/sandbox/v1/settings", {
      body: { send_latency_ms: 1000, media_cap_bytes: { sms: 2_000_000 }, ffmpeg_path: null },
    });
    expect(res.status).toBe(200);
    const changed = {
      ...DEFAULTS,
      send_latency_ms: 1000,
      media_cap_bytes: { ...DEFAULTS.media_cap_bytes, sms: 2_000_000 },
      ffmpeg_path: null,
    };
    expect(res.body.data).toEqual(changed);
    await t.api("PATCH", "/sandbox/v1/settings", { body: { media_cap_bytes: { whatsapp: 5_000_000 } } });
    expect((await t.api("GET", "/sandbox/v1/settings")).body.data).toEqual({
      ...changed,
      media_cap_bytes: { ...changed.media_cap_bytes, whatsapp: 5_000_000 },
    });
    // An empty body or {} changes nothing.
    expect((await t.api("PATCH", "/sandbox/v1/settings", { body: {} })).status).toBe(200);
    expect((await t.api("PATCH", "/sandbox/v1/settings")).status).toBe(200);
  });

  it.each([
    [{ send_latency_ms: -1 }, "send_latency_ms: must be at least 0"],
    [{ send_latency_ms: 1.5 }, "send_latency_ms"],
    [{ deliver_latency_ms: "500" }, "deliver_latency_ms: must be a number, not a string"],
    [{ read_delay_ms: 8 * 24 * 3_600_000 }, "read_delay_ms: must be at most 604800000"],
    [{ sned_latency_ms: 5 }, 'Unrecognized key: "sned_latency_ms"'],
    [{ media_cap_bytes: { mms: 1 } }, 'media_cap_bytes: Unrecognized key: "mms"'],
    [{ media_cap_bytes: { sms: 0 } }, "media_cap_bytes.sms: must be at least 1"],
    [{ media_cap_bytes: 5 }, "media_cap_bytes: must be an object, not a number"],
    [{ max_json_body_bytes: 100 }, "max_json_body_bytes: must be at least 1024"],
    [{ ffmpeg_path: "" }, "ffmpeg_path"],
    [{ webhook_timeout_ms: 0 }, "webhook_timeout_ms: must be at least 1"],
    [{ strict_urls: "yes" }, "strict_urls: must be a boolean, not a string"],
    // One bad value in a patch: the good ones beside it are not applied either.
    [{ send_latency_ms: 5, read_delay_ms: -1 }, "read_delay_ms"],
    [[1], "body"],
  ])("refuses %j with 400 invalid_request naming it, and changes nothing", async (body, message) => {
    const res = await t.api("PATCH", "/sandbox/v1/settings", { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.message).toContain(message);
    expect((await t.api("GET", "/sandbox/v1/settings")).body.data).toEqual(DEFAULTS);
  });
});

describe("settings take effect for work scheduled afterwards", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("send_latency_ms 1000: a message accepted afterwards is not sent at 999 ms, sent at 1000 ms", async () => {
    await t.api("PATCH", "/sandbox/v1/settings", { body: { send_latency_ms: 1000 } });
    const { id } = await send(t, {});
    await t.advance(999);
    expect(await statusOf(t, id)).toBe("queued");
    await t.advance(1);
    expect(await statusOf(t, id)).toBe("sent");
  });

  it("a message accepted before the change keeps the time it was given", async () => {
    const { id } = await send(t, {});
    await t.api("PATCH", "/sandbox/v1/settings", { body: { send_latency_ms: 5000 } });
    await t.advance(200);
    expect(await statusOf(t, id)).toBe("sent");
  });

  it("deliver_latency_ms and read_delay_ms move delivered and read", async () => {
    await t.api("PATCH", "/sandbox/v1/settings", { body: { deliver_latency_ms: 3000, read_delay_ms: 0 } });
    const { id } = await send(t, { to: IPHONE, from_handle: MAIN });
    await t.advance(200 + 2999);
    expect(await statusOf(t, id)).toBe("sent");
    await t.advance(1);
    expect(await statusOf(t, id)).toBe("read");
  });

  it("strict_urls refuses loopback webhook URLs from then on; false allows them again", async () => {
    await t.api("PATCH", "/sandbox/v1/settings", { body: { strict_urls: true } });
    const refused = await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hooks" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_url");
    await t.api("PATCH", "/sandbox/v1/settings", { body: { strict_urls: false } });
    expect((await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hooks" } })).status).toBe(201);
  });

  it("max_json_body_bytes bounds the JSON bodies of both hosts, and a patch that sets it back fits under the least", async () => {
    await t.api("PATCH", "/sandbox/v1/settings", { body: { max_json_body_bytes: 1024 } });
    const big = await t.api("POST", "/v1/messages", {
      body: { from_handle: MAIN, to: IPHONE, text: "x".repeat(2000) },
    });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe("payload_too_large");
    const otp = await t.otp("POST", "/v1/challenges", { body: { phone: IPHONE, pad: "x".repeat(2000) } });
    expect(otp.status).toBe(413);
    const back = await t.api("PATCH", "/sandbox/v1/settings", { body: { max_json_body_bytes: MiB } });
    expect(back.status).toBe(200);
    expect((await send(t, { text: "x".repeat(2000) })).status).toBe("queued");
  });

  it("a reset goes back to the fixture's settings", async () => {
    await t.api("PATCH", "/sandbox/v1/settings", { body: { send_latency_ms: 1000 } });
    await t.sandbox.control.reset();
    expect((await t.api("GET", "/sandbox/v1/settings")).body.data).toEqual(DEFAULTS);
  });
});
