import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createClient, startSandbox, verifyWebhook, type StartedSandbox } from "../../src/index.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

const NUMBER = "+14155550101";
const WHATSAPP = "+14155550103";
const CONTACT = "+14155550191";
const OTHER = "+14155550192";
const SIGNATURE = "x-service-signature";

const folder = mkdtempSync(join(tmpdir(), "msgctl-snapshots-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Everything a suite can see of the sandbox, read through the API, to compare before and after. */
async function everything(sb: StartedSandbox) {
  const c = sb.client;
  const messages = await c.messages.list({ limit: 100 });
  return {
    clock: await c.sandbox.clock(),
    accounts: await c.accounts.list(),
    numbers: await c.numbers.list(),
    contacts: await c.contacts.list(),
    faults: await Promise.all([NUMBER, WHATSAPP].map((n) => c.simulate.faults(n))),
    messages: messages.data,
    chats: (await c.chats.list()).data,
    webhooks: (await c.webhooks.list()).data,
    deliveries: (await c.webhooks.deliveries()).data,
    events: (await c.sandbox.events({ limit: 100 })).data,
    challenges: await c.otp.challenges(),
    otpFaults: await c.otp.faults(),
  };
}

describe.each([
  ["in memory", undefined],
  ["in a database file", join(folder, "sandbox.db")],
])("snapshots of a sandbox %s", (_, db) => {
  let sb: StartedSandbox;
  const app = useReceiver();
  beforeAll(async () => {
    sb = await startSandbox({ db });
  });
  afterAll(() => sb.stop());
  beforeEach(async () => {
    await sb.reset();
    app.requests.length = 0;
    app.reply(() => ({ status: 204 }));
  });

  it("restore brings back every kind of state and removes everything made after the save", async () => {
    const c = sb.client;
    // --- A world with some of everything ---
    const created = await c.accounts.create({ name: "Globex" });
    await c.contacts.set(OTHER, { platform: "ios", imessage: true, read_receipts: false });
    await c.simulate.fault(WHATSAPP, "transient", { count: 2 });
    const { webhook: hook } = await c.webhooks.create({ url: app.url, events: ["message.received", "message.sent"] });
    const [upload] = await c.attachments.upload([
      { filename: "note.txt", data: new TextEncoder().encode("kept bytes") },
    ]);
    const sent = await c.messages.send(
      { from_handle: NUMBER, to: CONTACT, text: "with a file", attachment_ids: [upload?.id as string] },
      { idempotencyKey: "order-1" },
    );
    const inbound = await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "hello" });
    const { chat: group } = await c.chats.create({
      from_handle: NUMBER,
      addresses: [CONTACT, OTHER],
      message: "group hello",
      title: "Team",
    });
    const challenge = await sb.otp.create(CONTACT);
    await sb.clock.advance("1s");
    await sb.settle();
    const before = await everything(sb);
    const bytes = async (id: string) =>
      Buffer.from(await (await c.attachments.download(await c.attachments.get(id))).arrayBuffer());
    expect((await bytes(upload?.id as string)).toString()).toBe("kept bytes");

    await sb.snapshot("world");

    // --- Change every kind of state ---
    await c.accounts.delete("Globex");
    await c.accounts.create({ name: "Initech" });
    await c.contacts.set(OTHER, { platform: "android" });
    await c.simulate.fault(WHATSAPP, "offline");
    await c.webhooks.rotateSecret(hook.id);
    await c.webhooks.create({ url: `${app.url}/later`, events: ["message.read"] });
    const [later] = await c.attachments.upload([
      { filename: "later.txt", data: new TextEncoder().encode("later bytes") },
    ]);
    await c.messages.send({ from_handle: NUMBER, to: CONTACT, text: "after the save" });
    await sb.simulate.inbound({ from: OTHER, to: NUMBER, text: "after, inbound" });
    await c.chats.rename(group.id, "Renamed");
    await sb.otp.text(challenge.id);
    await sb.otp.consume(challenge.id);
    await c.otp.fault("unavailable");
    await sb.clock.advance("2h");
    expect(await everything(sb)).not.toEqual(before);

    const restored = await sb.restore("world");

    // --- Each kind, as it was ---
    const after = await everything(sb);
    expect(after.clock).toEqual(before.clock);
    expect(restored.clock).toEqual(before.clock);
    expect(after.accounts).toEqual(before.accounts);
    expect(after.numbers).toEqual(before.numbers);
    expect(after.contacts).toEqual(before.contacts);
    expect(after.faults).toEqual(before.faults);
    expect(after.messages).toEqual(before.messages);
    expect(after.chats).toEqual(before.chats);
    expect(after.webhooks).toEqual(before.webhooks);
    expect(after.deliveries).toEqual(before.deliveries);
    expect(after.events).toEqual(before.events);
    expect(after.challenges).toEqual(before.challenges);
    expect(after.otpFaults).toEqual({ unavailable: false });
    expect(after).toEqual(before);
    // Accounts and keys: the restored account's key works again; the one made after is gone.
    const globex = createClient({ baseUrl: sb.baseUrl, apiKey: created.api_key });
    expect((await globex.numbers.list()).length).toBeGreaterThan(0);
    expect(after.accounts.map((a) => a.name)).toEqual(["Acme", "Globex"]);
    // Attachments and their bytes; the one uploaded after is gone.
    expect((await bytes(upload?.id as string)).toString()).toBe("kept bytes");
    await expect(c.attachments.get(later?.id as string)).rejects.toMatchObject({ status: 404 });
    // Idempotency keys: the key used before the save replays its message.
    const replay = await c.messages.send(
      { from_handle: NUMBER, to: CONTACT, text: "with a file", attachment_ids: [upload?.id as string] },
      { idempotencyKey: "order-1" },
    );
    expect(replay).toMatchObject({ replayed: true, message: { id: sent.message.id } });
    // The inbound message and the group are there; the OTP challenge is pending again.
    expect(after.messages.map((m) => m.id)).toContain(inbound.id);
    expect(await sb.otp.get(challenge.id)).toMatchObject({ status: "pending" });
  });

  it("keeps signing with the restored secret", async () => {
    const { webhook: hook } = await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
    await sb.snapshot("secret");
    const rotated = await sb.client.webhooks.rotateSecret(hook.id);
    expect(rotated.secret).not.toBe(hook.secret);
    await sb.restore("secret");
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "signed" });
    await sb.settle();
    const request = app.requests.at(-1);
    expect(request).toBeDefined();
    expect(verifyWebhook(request?.body ?? "", request?.headers[SIGNATURE], hook.secret).ok).toBe(true);
    expect(verifyWebhook(request?.body ?? "", request?.headers[SIGNATURE], rotated.secret).ok).toBe(false);
  });

  it("a failing receiver's next attempt happens at the right virtual time after restore", async () => {
    app.reply(() => ({ status: 500 }));
    await sb.client.webhooks.create({ url: app.url, events: ["message.received"] });
    await sb.simulate.inbound({ from: CONTACT, to: NUMBER, text: "retry me" });
    await sb.settle();
    const [pending] = (await sb.client.webhooks.deliveries()).data;
    expect(pending).toMatchObject({ status: "pending", attempts: [{ n: 1, status_code: 500 }] });
    const firstAt = Date.parse(pending?.attempts[0]?.at ?? "");
    // The ladder's first wait is 5 s after the first attempt started (spec section 6).
    expect(pending?.next_attempt_at).toBe(new Date(firstAt + 5_000).toISOString());
    await sb.clock.advance("2s");
    await sb.snapshot("retrying");

    // Past the save the ladder goes on: attempt 2 at 5 s, attempt 3 a minute later.
    await sb.clock.advance("2m");
    expect((await sb.client.webhooks.deliveries()).data[0]?.attempts).toHaveLength(3);
    const seenBefore = app.requests.length;

    await sb.restore("retrying");
    expect(sb.clock.now().getTime()).toBe(firstAt + 2_000);
    expect((await sb.client.webhooks.deliveries()).data).toEqual([pending]);
    // Nothing is attempted before the wait is over, then attempt 2 goes out at exactly T + 5 s.
    await sb.clock.advance("2999ms");
    expect(app.requests.length).toBe(seenBefore);
    await sb.clock.advance("1ms");
    const [retried] = (await sb.client.webhooks.deliveries()).data;
    expect(retried?.attempts.map((a) => a.at)).toEqual([
      new Date(firstAt).toISOString(),
      new Date(firstAt + 5_000).toISOString(),
    ]);
    expect(app.requests.length).toBe(seenBefore + 1);
    expect(app.requests.at(-1)?.headers["x-msgctl-attempt"]).toBe("2");
  });

  it("queued jobs come back with the clock: a message queued at the save is sent after it", async () => {
    const { message } = await sb.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: "queued" });
    await sb.snapshot("queued");
    await sb.clock.advance("10s");
    expect((await sb.client.messages.get(message.id)).status).toBe("read");
    await sb.restore("queued");
    expect((await sb.client.messages.get(message.id)).status).toBe("queued");
    await sb.clock.advance("1s");
    expect((await sb.client.messages.get(message.id)).status).toBe("delivered");
  });

  it("restores a snapshot many times over, and the names are listed by name", async () => {
    await sb.snapshot("b");
    await sb.snapshot("a");
    for (let i = 0; i < 5; i++) {
      await sb.client.messages.send({ from_handle: NUMBER, to: CONTACT, text: `try ${i}` });
      await sb.restore("a");
      expect((await sb.client.messages.list()).data).toEqual([]);
    }
    expect((await sb.client.snapshots.list()).map((s) => s.name)).toEqual(expect.arrayContaining(["a", "b"]));
  });
});
