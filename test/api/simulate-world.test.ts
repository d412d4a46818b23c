import { describe, expect, it } from "vitest";
import { ANDROID, IPHONE, MAGIC, MAIN, message, resetBeforeEach, setContact } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

describe("contacts (docs/simulated-world.md): profiles decide routing", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("lists the fixture's contacts, then the magic numbers with what they are for", async () => {
    const res = await t.api("GET", "/sandbox/v1/contacts");
    expect(res.body.has_more).toBe(false);
    const contacts = res.body.data;
    expect(contacts[0]).toEqual({
      handle: IPHONE,
      imessage: true,
      platform: "ios",
      whatsapp: true,
      reachable: true,
      read_receipts: true,
      source: "contact",
    });
    expect(contacts[1]).toMatchObject({ handle: ANDROID, imessage: false, platform: "android", whatsapp: false });
    expect(contacts.find((c: any) => c.handle === MAGIC.unreachable)).toMatchObject({
      source: "magic",
      reachable: false,
      description: expect.any(String),
    });
  });

  it("shows the default profile for an unknown number, and iMessage for an email", async () => {
    const unknown = (await t.api("GET", "/sandbox/v1/contacts/%2B14155550150")).body.data;
    expect(unknown).toEqual({
      handle: "+14155550150",
      imessage: true,
      platform: "ios",
      whatsapp: true,
      reachable: true,
      read_receipts: true,
      source: "default",
    });
    const email = (await t.api("GET", "/sandbox/v1/contacts/a%40example.com")).body.data;
    expect(email).toMatchObject({ imessage: true, whatsapp: false });
  });

  it("sets part of a profile, keeping the rest; Android turns iMessage off unless told", async () => {
    const set = await setContact(t, "+14155550150", { platform: "android" });
    expect(set).toMatchObject({
      handle: "+14155550150",
      platform: "android",
      imessage: false,
      whatsapp: true,
      source: "contact",
    });
    const magic = await setContact(t, MAGIC.unreachable, { reachable: true });
    expect(magic).toMatchObject({ reachable: true, source: "contact" });
  });

  it("an empty change (no body, or {}) writes nothing: the contact stays off the record", async () => {
    for (const body of [undefined, {}]) {
      const res = await t.api("PATCH", `/sandbox/v1/contacts/${encodeURIComponent("+14155550177")}`, { body });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ handle: "+14155550177", source: "default" });
    }
    const listed = (await t.api("GET", "/sandbox/v1/contacts")).body.data.map((c: { handle: string }) => c.handle);
    expect(listed).not.toContain("+14155550177");
  });

  it.each([
    ["an invalid handle", "%2B15555550100", {}],
    ["a wrong type", "%2B14155550150", { imessage: "yes" }],
    ["an unknown trait", "%2B14155550150", { telepathy: true }],
    ["an Android email", "a%40example.com", { platform: "android" }],
  ])("refuses %s with 400 invalid_request", async (_name, handle, body) => {
    const res = await t.api("PATCH", `/sandbox/v1/contacts/${handle}`, { body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_request");
  });
});

describe("faults control API (docs/simulated-world.md)", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  const path = (handle: string) => `/sandbox/v1/numbers/${encodeURIComponent(handle)}/faults`;

  it("shows a number with no faults", async () => {
    expect((await t.api("GET", path(MAIN))).body.data).toEqual({
      handle: MAIN,
      status: "online",
      offline: false,
      transient_remaining: 0,
      rate_limited: false,
      rate_limit_level: 0,
      rate_limited_until: null,
      relink_required: false,
    });
  });

  it("takes the number without its + as well", async () => {
    expect((await t.api("GET", "/sandbox/v1/numbers/14155550101/faults")).body.data.handle).toBe(MAIN);
  });

  it("defaults transient to one error", async () => {
    expect((await t.api("POST", path(MAIN), { body: { fault: "transient" } })).body.data.transient_remaining).toBe(1);
  });

  it.each([
    [{ fault: "offline", count: 2 }, /^count: /],
    [{ fault: "offline", off: true }, /^off: /],
    [{ fault: "transient", count: -1 }, /^count: /],
    [{ fault: "melted" }, /^fault: /],
    [{}, /^fault: /],
  ])("refuses %j with 400", async (body, text) => {
    const res = await t.api("POST", path(MAIN), { body });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(text);
  });

  it("answers 404 for a number the account does not own", async () => {
    expect((await t.api("GET", path("+14155550199"))).status).toBe(404);
    expect((await t.api("POST", path("+14155550199"), { body: { fault: "offline" } })).status).toBe(404);
  });
});
