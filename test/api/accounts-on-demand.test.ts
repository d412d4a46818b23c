import { describe, expect, it } from "vitest";
import { resetBeforeEach } from "../helpers/messages.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/**
 * Accounts on demand (docs/control-api.md, `accounts create|list|delete`): isolated accounts for
 * parallel workers sharing one sandbox, deleted cleanly with all their data.
 */

async function create(t: TestSandbox, body: unknown = {}) {
  const res = await t.api("POST", "/sandbox/v1/accounts", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as {
    name: string;
    api_key: string;
    otp_api_key: string;
    numbers: { handle: string; channels: string[] }[];
  };
}

describe("POST /sandbox/v1/accounts", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("makes an account with generated keys (shown once) and a number from the pool", async () => {
    const account = await create(t);
    expect(account).toEqual({
      name: "account-2",
      api_key: expect.stringMatching(/^sk_test_[A-Za-z0-9]{24}$/),
      otp_api_key: expect.stringMatching(/^otp_live_[A-Za-z0-9]{24}$/),
      numbers: [{ handle: "+16285550100", channels: ["imessage", "sms"], label: "pool 1", status: "online" }],
    });
    const numbers = await t.api("GET", "/v1/numbers", { key: account.api_key });
    expect(numbers.body.data.map((n: { handle: string }) => n.handle)).toEqual(["+16285550100"]);
    const listed = (await t.api("GET", "/sandbox/v1/accounts")).body.data.find(
      (a: { name: string }) => a.name === account.name,
    );
    expect(listed).toMatchObject({ name: account.name, api_key: null, otp_api_key: null });
  });

  it("takes the fixture's shape: name, keys, numbers, app name, OTP suspension", async () => {
    const account = await create(t, {
      name: "worker-1",
      api_key: "sk_test_worker_one_0000000000",
      otp_api_key: "otp_live_worker_one_000000000",
      numbers: [{ handle: "+14155550150", channels: ["imessage", "sms", "whatsapp"] }],
    });
    expect(account).toMatchObject({
      name: "worker-1",
      api_key: "sk_test_worker_one_0000000000",
      numbers: [{ handle: "+14155550150", whatsapp_api: "linked" }],
    });
  });

  it("hands out further pool numbers, skipping those in use", async () => {
    const first = await create(t, { number_count: 2 });
    const second = await create(t);
    expect(first.numbers.map((n) => n.handle)).toEqual(["+16285550100", "+16285550101"]);
    expect(second.numbers.map((n) => n.handle)).toEqual(["+16285550102"]);
  });

  it.each([
    [{ name: "Acme" }, 'name: an account named "Acme" exists already'],
    [{ api_key: "sk_test_acme_0000000000000000" }, "api_key: that key belongs to another account"],
    [
      { numbers: [{ handle: "+14155550101", channels: ["sms"] }] },
      "numbers[0].handle: +14155550101 belongs to another account",
    ],
    [{ number_count: 21 }, "number_count"],
    [
      { numbers: [{ handle: "+14155550177", channels: ["sms"] }], number_count: 2 },
      "number_count: give numbers or number_count, not both",
    ],
    [{ name: "" }, "name"],
    [{ api_key: "otp_live_wrong_kind_00000000" }, "api_key"],
    [{ numbers: [{ handle: "+15550000000", channels: ["sms"] }] }, "numbers.0.handle"],
    [{ unknown: true }, "unknown"],
    [{ whatsapp: "business" }, 'whatsapp: must be one of "linked", "cloud"'],
    [
      { numbers: [{ handle: "+14155550177", channels: ["sms"] }], whatsapp: "cloud" },
      "whatsapp: give numbers or whatsapp, not both",
    ],
    ["not an object", "body"],
  ])("refuses %j with 400 invalid_request naming the field, and makes nothing", async (body, message) => {
    const before = (await t.api("GET", "/sandbox/v1/accounts")).body.data.length;
    const res = await t.api("POST", "/sandbox/v1/accounts", { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    expect(res.body.message).toContain(message);
    expect((await t.api("GET", "/sandbox/v1/accounts")).body.data.length).toBe(before);
  });
});

describe("POST /sandbox/v1/accounts with whatsapp: cloud | linked", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("adds one WhatsApp number of that kind after the number_count iMessage and SMS numbers", async () => {
    const account = await create(t, { number_count: 2, whatsapp: "cloud" });
    expect(account.numbers).toEqual([
      { handle: "+16285550100", channels: ["imessage", "sms"], label: "pool 1", status: "online" },
      { handle: "+16285550101", channels: ["imessage", "sms"], label: "pool 2", status: "online" },
      {
        handle: "+16285550102",
        channels: ["whatsapp"],
        label: "pool whatsapp",
        status: "online",
        whatsapp_api: "cloud",
      },
    ]);
    const numbers = await t.api("GET", "/v1/numbers", { key: account.api_key });
    expect(numbers.body.data[2]).toMatchObject({ handle: "+16285550102", whatsapp_api: "cloud" });
  });

  it("the number sends on WhatsApp, and is the kind asked for: a cloud number has no linked session to lose", async () => {
    const cloud = await create(t, { whatsapp: "cloud" });
    const linked = await create(t, { whatsapp: "linked" });
    const whatsappOf = (account: typeof cloud) => account.numbers.find((n) => n.channels.includes("whatsapp"))!.handle;
    const sent = await t.api("POST", "/v1/messages", {
      key: cloud.api_key,
      body: { from_handle: whatsappOf(cloud), to: "+14155550191", text: "hola", channel: "whatsapp" },
    });
    expect(sent.status).toBe(202);
    await t.advance(1_000);
    const after = await t.api("GET", `/v1/messages/${sent.body.data.id}`, { key: cloud.api_key });
    expect(after.body.data).toMatchObject({ channel: "whatsapp", status: "delivered" });
    const relink = (account: typeof cloud) =>
      t.api("POST", `/sandbox/v1/numbers/${encodeURIComponent(whatsappOf(account))}/faults`, {
        key: account.api_key,
        body: { fault: "relink-required" },
      });
    expect((await relink(cloud)).status).toBe(400);
    expect((await relink(linked)).status).toBe(200);
  });
});

describe("accounts on demand are isolated from each other", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("data, events, webhooks and idempotency keys are each account's own", async () => {
    const a = await create(t);
    const b = await create(t);
    const sendAs = (key: string, from: string) =>
      t.api("POST", "/v1/messages", {
        key,
        body: { from_handle: from, to: "+14155550191", text: "hi" },
        headers: { "idempotency-key": "same-key" },
      });
    const fromA = await sendAs(a.api_key, a.numbers[0]!.handle);
    const fromB = await sendAs(b.api_key, b.numbers[0]!.handle);
    expect([fromA.status, fromB.status]).toEqual([202, 202]);
    expect(fromA.body.data.id).not.toBe(fromB.body.data.id);
    // Neither sees the other's message, even with the other's id, nor sends from its number.
    expect((await t.api("GET", "/v1/messages", { key: a.api_key })).body.data.map((m: { id: string }) => m.id)).toEqual(
      [fromA.body.data.id],
    );
    expect((await t.api("GET", `/v1/messages/${fromB.body.data.id}`, { key: a.api_key })).status).toBe(404);
    const foreign = await t.api("POST", "/v1/messages", {
      key: a.api_key,
      body: { from_handle: b.numbers[0]!.handle, to: "+14155550191", text: "x" },
    });
    expect(foreign.body.error).toBe("invalid_from_handle");

    await t.api("POST", "/v1/webhooks", { key: a.api_key, body: { url: "http://127.0.0.1:9/a" } });
    expect((await t.api("GET", "/v1/webhooks", { key: b.api_key })).body.data).toEqual([]);

    await t.advance(1_000);
    const eventsOf = async (key: string) =>
      (await t.api("GET", "/sandbox/v1/events?limit=100", { key })).body.data.map(
        (e: { payload: { message_id: string } }) => e.payload.message_id,
      );
    expect(new Set(await eventsOf(a.api_key))).toEqual(new Set([fromA.body.data.id]));
    expect(new Set(await eventsOf(b.api_key))).toEqual(new Set([fromB.body.data.id]));
  });
});

describe("DELETE /sandbox/v1/accounts/:name", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("removes the account and all its data; its keys stop working and its numbers return to the pool", async () => {
    const account = await create(t);
    const sent = await t.api("POST", "/v1/messages", {
      key: account.api_key,
      body: { from_handle: account.numbers[0]!.handle, to: "+14155550191", text: "bye" },
    });
    await t.api("POST", "/v1/webhooks", { key: account.api_key, body: { url: "http://127.0.0.1:9/a" } });
    await t.advance(3_000);

    const db = t.sandbox.db;
    const id = db.first(db.q.selectFrom("accounts").select("id").where("name", "=", account.name))?.id as string;
    const rowsOfAccount = () =>
      db.tablesWithColumn("account_id").reduce(
        (sum, table) =>
          sum +
          Number(
            db.first(
              db.q
                .selectFrom(table as "messages")
                .select((eb) => eb.fn.countAll().as("n"))
                .where("account_id", "=", id),
            )?.n ?? 0,
          ),
        0,
      );
    expect(rowsOfAccount()).toBeGreaterThan(5);

    const res = await t.api("DELETE", `/sandbox/v1/accounts/${account.name}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ name: account.name, deleted: true });
    expect((await t.api("GET", "/v1/numbers", { key: account.api_key })).status).toBe(401);
    expect((await t.api("GET", `/v1/messages/${sent.body.data.id}`)).status).toBe(404);
    // Nothing of it is left in any table.
    expect(rowsOfAccount()).toBe(0);
    expect((await create(t)).numbers[0]?.handle).toBe(account.numbers[0]?.handle);
  });

  it("answers 404 for an unknown name and 409 for the last account", async () => {
    expect((await t.api("DELETE", "/sandbox/v1/accounts/nobody")).status).toBe(404);
    const last = await t.api("DELETE", "/sandbox/v1/accounts/Acme");
    expect(last.status).toBe(409);
    expect(last.body.error).toBe("invalid_state");
  });
});
