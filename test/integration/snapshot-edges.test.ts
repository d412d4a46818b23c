import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createClient, startSandbox, type StartedSandbox } from "../../src/index.js";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { KEY } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const NUMBER = "+14155550101";
const CONTACT = "+14155550191";

const folder = mkdtempSync(join(tmpdir(), "msgctl-snapshot-edges-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.each([
  ["in memory", ":memory:"],
  ["in a database file", join(folder, "failing.db")],
])("a failed save, %s", (_, db) => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await launchSandbox({ db, listen: true });
  });
  afterAll(() => sandbox.stop());

  it("keeps the older snapshot of that name, and leaves no temporary file", async () => {
    const client = createClient({ baseUrl: sandbox.baseUrl, apiKey: KEY });
    const [upload] = await client.attachments.upload([{ filename: "a.txt", data: new TextEncoder().encode("older") }]);
    const older = await client.snapshots.save("kept");
    await client.messages.send({ from_handle: NUMBER, to: CONTACT, text: "newer" });
    // The attachment's bytes are gone from the blob store: the next save cannot read them.
    await sandbox.ctx.blobs.prune(new Set());
    const failed = await client.snapshots.save("kept").catch((error: unknown) => error);
    expect(failed).toMatchObject({
      status: 500,
      code: "internal_error",
      message: expect.stringMatching(
        /^Snapshot kept could not be saved \(.+\); an earlier snapshot of that name is kept$/,
      ),
    });
    expect(await client.snapshots.get("kept")).toEqual(older);
    if (db !== ":memory:") {
      expect(readdirSync(join(folder, "snapshots")).sort()).toEqual(["kept.msgctl-snapshot"]);
    }
    // The older one restores, its attachment's bytes included (they come back from the snapshot).
    await client.snapshots.restore("kept");
    expect((await client.messages.list()).data).toEqual([]);
    const attachment = await client.attachments.get(upload?.id as string);
    expect(await (await client.attachments.download(attachment)).text()).toBe("older");
  });
});

describe("snapshots of a database file live in a folder beside it", () => {
  it("`snapshots/` next to the file by default, or the folder given; they outlive a restart", async () => {
    const db = join(folder, "beside", "sandbox.db");
    const first = await startSandbox({ db });
    await first.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: "before the restart" });
    await first.snapshot("persisted");
    await first.stop();
    expect(existsSync(join(folder, "beside", "snapshots", "persisted.msgctl-snapshot"))).toBe(true);

    const second = await startSandbox({ db });
    await second.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: "after the restart" });
    await second.restore("persisted");
    expect((await second.client.messages.list()).data.map((m) => m.text)).toEqual(["before the restart"]);
    await second.stop();

    const elsewhere = join(folder, "elsewhere");
    const third = await startSandbox({ db: join(folder, "third.db"), snapshots: elsewhere });
    await third.snapshot("here");
    await third.stop();
    expect(readdirSync(elsewhere)).toEqual(["here.msgctl-snapshot"]);
  });
});

describe("restore and what is in flight", () => {
  let sb: StartedSandbox;
  const app = useReceiver();
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.stop());
  beforeEach(async () => {
    await sb.reset();
    app.requests.length = 0;
    app.reply(() => ({ status: 204 }));
  });

  it("abandons an attempt in flight: nothing of it is written, and the restored state goes on", async () => {
    await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
    await sb.snapshot("quiet");
    app.reply(() => "hang");
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "never answered" });
    await vi.waitFor(() => expect(app.requests).toHaveLength(1));
    const started = performance.now();
    await sb.restore("quiet");
    // Aborted, not waited for: the acknowledgement window is 10 s.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await sb.client.webhooks.deliveries()).data).toEqual([]);
    app.reply(() => ({ status: 204 }));
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "after the restore" });
    const settled = await sb.settle();
    expect(settled.attempts).toBe(1);
    expect((await sb.client.webhooks.deliveries()).data).toMatchObject([{ status: "succeeded" }]);
  });

  it("an unknown or bad name changes nothing: an attempt in flight goes on", async () => {
    await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
    app.reply(() => ({ status: 204, delayMs: 200 }));
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "on the wire" });
    await vi.waitFor(() => expect(app.requests).toHaveLength(1));
    await expect(sb.restore("missing")).rejects.toMatchObject({ code: "not_found", status: 404 });
    await expect(sb.restore("../etc")).rejects.toMatchObject({ code: "invalid_request", status: 400 });
    await sb.settle();
    expect((await sb.client.webhooks.deliveries()).data).toMatchObject([{ status: "succeeded" }]);
  });
});

describe("restore on a real clock", () => {
  let sb: StartedSandbox;
  beforeAll(async () => {
    sb = await startSandbox({ clock: "real" });
  });
  afterAll(() => sb.stop());

  it("keeps the wall's time, and runs the work that fell due since the save", async () => {
    const { message } = await sb.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: "queued" });
    await sb.snapshot("queued");
    await sb.waitForEvent("message.delivered", { match: { message_id: message.id } });
    const before = sb.clock.now().getTime();
    const restored = await sb.restore("queued");
    expect(Date.parse(restored.clock.now)).toBeGreaterThanOrEqual(before);
    expect(restored.clock.mode).toBe("real");
    expect(sb.clock.now().getTime()).toBeGreaterThanOrEqual(before);
    // Its send job fell due while the saved state waited: it runs.
    await vi.waitFor(async () => expect((await sb.client.messages.get(message.id)).status).not.toBe("queued"), {
      timeout: 2_000,
    });
  });
});

describe("startSandbox({ restore }) starts from an exported file", () => {
  it("with the snapshot's accounts, keys, state and clock; the fixture is not used", async () => {
    const source = await startSandbox();
    const globex = await source.client.accounts.create({ name: "Globex" });
    await source.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: "exported" });
    await source.clock.advance("1m");
    const saved = await source.snapshot("shipped");
    const file = join(folder, "shipped.msgctl-snapshot");
    const exported = await source.client.snapshots.export("shipped");
    writeFileSync(file, Buffer.from(await exported.arrayBuffer()));
    await source.stop();

    const fixture = { accounts: [{ name: "Other", numbers: [{ handle: "+14155550170", channels: ["sms"] }] }] };
    const sb = await startSandbox({ restore: file, fixture });
    try {
      expect(sb.accounts.map((a) => a.name)).toEqual(["Acme", "Globex"]);
      expect(sb.apiKey).toBe(KEY);
      expect(sb.clock.now().toISOString()).toBe(saved.clock.now);
      expect((await sb.client.messages.list()).data.map((m) => m.text)).toEqual(["exported"]);
      // The key shown once at its creation works again.
      const client = createClient({ baseUrl: sb.baseUrl, apiKey: globex.api_key });
      expect((await client.numbers.list()).length).toBeGreaterThan(0);
    } finally {
      await sb.stop();
    }
    await expect(startSandbox({ restore: join(folder, "none.msgctl-snapshot") })).rejects.toMatchObject({
      code: "invalid_snapshot",
      message: `${join(folder, "none.msgctl-snapshot")} does not exist`,
    });
  });
});
