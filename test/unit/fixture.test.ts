import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseFixture, parseFixtureText } from "../../src/domain/control/index.js";

const good = () => JSON.parse(readFileSync("fixtures/default.json", "utf8"));

/** The error message parseFixture throws for a fixture changed by `edit`. */
function problem(edit: (fixture: any) => void): string {
  const fixture = good();
  edit(fixture);
  try {
    parseFixture(fixture, "my.json");
  } catch (error) {
    expect(error).toMatchObject({ code: "invalid_request" });
    return (error as Error).message;
  }
  throw new Error("the fixture was accepted");
}

describe("fixture file (docs/sandbox.md)", () => {
  it("accepts the shipped default fixture and fills in defaults", () => {
    const fixture = parseFixture(good(), "default.json");
    expect(fixture.accounts[0]).toMatchObject({ name: "Acme", otp_suspended: false });
    expect(fixture.accounts[0]?.numbers[0]?.whatsapp_api).toBeNull();
    expect(fixture.accounts[0]?.numbers[2]?.whatsapp_api).toBe("linked");
  });

  it("normalises handles to E.164", () => {
    const fixture = good();
    fixture.accounts[0].numbers[0].handle = "+1 (415) 555-0101";
    expect(parseFixture(fixture, "x").accounts[0]?.numbers[0]?.handle).toBe("+14155550101");
  });

  it("lets keys be left out (they are generated at seeding)", () => {
    const fixture = good();
    delete fixture.accounts[0].api_key;
    delete fixture.accounts[0].otp_api_key;
    expect(parseFixture(fixture, "x").accounts[0]?.api_key).toBeUndefined();
  });

  describe("names the file, the field and the problem", () => {
    it.each<[string, (f: any) => void, RegExp]>([
      ["no accounts", (f) => (f.accounts = []), /^my\.json: accounts: must list at least one account/],
      ["accounts not an array", (f) => (f.accounts = {}), /^my\.json: accounts: /],
      ["empty account name", (f) => (f.accounts[0].name = ""), /accounts\[0\]\.name: must not be empty/],
      [
        "duplicate account name",
        (f) => f.accounts.push({ ...f.accounts[0], api_key: undefined, otp_api_key: undefined, numbers: [] }),
        /accounts\[1\]\.name: account name "Acme" appears twice/,
      ],
      [
        "api_key of the wrong kind",
        (f) => (f.accounts[0].api_key = "otp_live_x"),
        /accounts\[0\]\.api_key: must look like sk_test_/,
      ],
      [
        "otp_api_key of the wrong kind",
        (f) => (f.accounts[0].otp_api_key = "sk_test_x"),
        /accounts\[0\]\.otp_api_key: must look like otp_live_/,
      ],
      [
        "otp_suspended not a boolean",
        (f) => (f.accounts[0].otp_suspended = "yes"),
        /accounts\[0\]\.otp_suspended: must be a boolean, not a string$/,
      ],
      [
        "invalid number",
        (f) => (f.accounts[0].numbers[1].handle = "+15555550101"),
        /accounts\[0\]\.numbers\[1\]\.handle: "\+15555550101" is not a valid phone number/,
      ],
      [
        "unknown channel",
        (f) => (f.accounts[0].numbers[0].channels = ["telegram"]),
        /accounts\[0\]\.numbers\[0\]\.channels\[0\]: must be one of "imessage", "sms", "whatsapp"$/,
      ],
      [
        "no channels",
        (f) => (f.accounts[0].numbers[0].channels = []),
        /accounts\[0\]\.numbers\[0\]\.channels: must name at least one channel/,
      ],
      [
        "whatsapp_api on a non-WhatsApp number",
        (f) => (f.accounts[0].numbers[0].whatsapp_api = "cloud"),
        /accounts\[0\]\.numbers\[0\]\.whatsapp_api: is only for numbers that serve whatsapp/,
      ],
      [
        "unknown whatsapp_api",
        (f) => (f.accounts[0].numbers[1].whatsapp_api = "business"),
        /accounts\[0\]\.numbers\[1\]\.whatsapp_api: /,
      ],
      [
        "number owned twice",
        (f) => (f.accounts[0].numbers[1].handle = f.accounts[0].numbers[0].handle),
        /numbers\[1\]\.handle: number "\+14155550101" appears twice/,
      ],
      ["unknown field (a typo)", (f) => (f.accounts[0].nubmers = []), /accounts\[0\]: Unrecognized key.*nubmers/],
      [
        "invalid contact handle",
        (f) => (f.contacts[0].handle = "not a phone"),
        /contacts\[0\]\.handle: "not a phone" is neither/,
      ],
      ["unknown platform", (f) => (f.contacts[0].platform = "windows"), /contacts\[0\]\.platform: /],
      ["contact trait not a boolean", (f) => (f.contacts[0].read_receipts = "off"), /contacts\[0\]\.read_receipts: /],
      [
        "duplicate contact",
        (f) => f.contacts.push({ handle: f.contacts[0].handle }),
        /contacts\[2\]\.handle: contact "\+14155550191" appears twice/,
      ],
      ["invalid OTP number", (f) => (f.otp.number = "12"), /otp\.number: "12" is not a valid phone number/],
      [
        "a setting out of range",
        (f) => (f.settings = { send_latency_ms: -1 }),
        /^my\.json: settings\.send_latency_ms: must be at least 0$/,
      ],
      [
        "a setting of the wrong type",
        (f) => (f.settings = { strict_urls: "yes" }),
        /^my\.json: settings\.strict_urls: must be a boolean, not a string$/,
      ],
      [
        "a nested setting out of range",
        (f) => (f.settings = { media_cap_bytes: { sms: 0 } }),
        /^my\.json: settings\.media_cap_bytes\.sms: must be at least 1$/,
      ],
      [
        "an unknown setting (a typo)",
        (f) => (f.settings = { sendLatencyMs: 5 }),
        /^my\.json: settings: Unrecognized key: "sendLatencyMs"$/,
      ],
      [
        "an account's number as the OTP number",
        (f) => (f.otp.number = f.accounts[0].numbers[0].handle),
        /otp\.number: "\+14155550101" is a number of account "Acme" too/,
      ],
      [
        "an account's number as the OTP WhatsApp number",
        (f) => (f.otp.whatsapp_number = f.accounts[0].numbers[1].handle),
        /otp\.whatsapp_number: "\+\d+" is a number of account "Acme" too/,
      ],
    ])("%s", (_name, edit, message) => {
      expect(problem(edit)).toMatch(message);
    });
  });

  it("reports text that is not JSON with the file name", () => {
    expect(() => parseFixtureText("{ nope", "broken.json")).toThrow(/^broken\.json: not valid JSON/);
  });
});

describe("the shipped fixture parsed at build time (scripts/default-fixture.mjs)", () => {
  it("is what parsing fixtures/default.json at start-up gives", async () => {
    // @ts-expect-error a build script, plain JavaScript
    const { parsedDefaultFixture } = await import("../../scripts/default-fixture.mjs");
    const atBuild = await parsedDefaultFixture();
    expect(atBuild).toEqual(
      JSON.parse(JSON.stringify(parseFixtureText(readFileSync("fixtures/default.json", "utf8"), "default.json"))),
    );
  }, 30_000);
});
