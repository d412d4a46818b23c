import { describe, expect, it } from "vitest";
import { deliveredIMessage, resetBeforeEach } from "../helpers/messages.js";
import { useSandbox, type Answer } from "../helpers/sandbox.js";

const errorShape = (code: string) => ({
  error: code,
  message: expect.any(String),
  request_id: expect.stringMatching(/^req_/),
});

function expect400(res: Answer, field: RegExp) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
  expect(res.body).toEqual(errorShape("invalid_request"));
  expect(res.body.message).toMatch(field);
  expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
}

describe("input limits (docs/spec-decisions.md): bad input is a 400 in the error shape, never a crash", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  it("a 600 KB reaction on react and on simulate reaction: 400 naming the field, and nothing changes", async () => {
    const delivered = await deliveredIMessage(t);
    const huge = "👍".repeat(150_000); // 600 KB of UTF-8, under the 1 MiB body limit
    expect400(await t.api("POST", `/v1/messages/${delivered.id}/react`, { body: { reaction: huge } }), /^reaction: /);
    const simulated = await t.api("POST", "/sandbox/v1/simulate/reaction", {
      body: { message_id: delivered.id, from: "+14155550191", reaction: huge },
    });
    expect400(simulated, /^reaction: /);
    const after = await t.api("GET", `/sandbox/v1/events?limit=100`);
    expect(after.body.data.filter((e: { type: string }) => e.type === "message.reaction")).toEqual([]);
  });

  it("a reaction of 20,000 characters (under the body limits) is refused as not one emoji", async () => {
    const delivered = await deliveredIMessage(t);
    expect400(
      await t.api("POST", `/v1/messages/${delivered.id}/react`, { body: { reaction: `😀${"\u0301".repeat(19_998)}` } }),
      /^reaction: must be one of/,
    );
  });

  it("a \\u escape of half a surrogate pair: 400 naming the field, nothing sent; a whole pair is taken", async () => {
    const body = (text: string) => `{"to":"+14155550150","from_handle":"+14155550101","text":"${text}"}`;
    for (const half of ["\\ud800", "x\\udc00y", "\\ude00\\ud83d"]) {
      expect400(await t.api("POST", "/v1/messages", { body: body(half) }), /^text: is not valid Unicode/);
    }
    expect400(
      await t.api("POST", "/v1/messages", { body: `{"\\ud800":1}` }),
      /^body: has a field name that is not valid Unicode/,
    );
    expect((await t.api("GET", "/v1/messages")).body.data).toEqual([]);
    const whole = await t.api("POST", "/v1/messages", { body: body("\\ud83d\\ude00") });
    expect(whole.status).toBe(202);
    expect((await t.api("GET", `/v1/messages/${whole.body.data.id}`)).body.data.text).toBe("😀");
  });

  it("a body that is not valid UTF-8: 400, nothing sent (decoding would store U+FFFD)", async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"to":"+14155550150","from_handle":"+14155550101","text":"a'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('b"}'),
    ]);
    expect400(await t.api("POST", "/v1/messages", { body: bytes }), /^body: not valid UTF-8/);
    expect((await t.api("GET", "/v1/messages")).body.data).toEqual([]);
  });

  it("an email handle with a control or invisible character: 400 naming the field, nothing stored", async () => {
    for (const odd of ["a@b.co\\u0000", "a@b.co\\u0007", "a@b.co\\u200b", "\\u202ea@b.co", "a\\u0000b@c.co"]) {
      expect400(
        await t.api("POST", "/v1/messages", { body: `{"to":"${odd}","from_handle":"+14155550101","text":"hi"}` }),
        /^to: /,
      );
    }
    expect400(await t.api("GET", `/v1/handles/availability?handle=${encodeURIComponent("a@b.co\u200b")}`), /^handle: /);
    expect400(
      await t.api("POST", "/v1/chats", {
        body: `{"addresses":["a@b.co","a@b.co\\u200b"],"from_handle":"+14155550101","message":"hi"}`,
      }),
      /^addresses/,
    );
    expect((await t.api("GET", "/v1/messages")).body.data).toEqual([]);
    expect((await t.api("GET", "/v1/chats")).body.data).toEqual([]);
  });

  it("JSON nested deeper than 32 levels: 400 naming the body", async () => {
    const deep = `{"to":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect400(await t.api("POST", "/v1/messages", { body: deep }), /^body: nested deeper than 32 levels/);
  });

  it("a handle of 10,000 characters: 400, and the message does not echo it in full", async () => {
    const res = await t.api("POST", "/v1/messages", {
      body: { to: `${"a@b.".repeat(2_500)}`, from_handle: "+14155550101", text: "hi" },
    });
    expect400(res, /^to: /);
    expect(res.body.message.length).toBeLessThan(200);
    const availability = await t.api("GET", `/v1/handles/availability?handle=${"a@".repeat(5_000)}`);
    expect400(availability, /^handle: /);
  });

  it("a clock advance that would pass the end of year 9999: 400, and the clock stays", async () => {
    const before = (await t.api("GET", "/sandbox/v1/clock")).body.data.now;
    expect400(
      await t.api("POST", "/sandbox/v1/clock/advance", { body: { duration: `${"9".repeat(60)}d` } }),
      /^advance: .*9999-12-31T23:59:59.999Z/,
    );
    expect400(
      await t.api("POST", "/sandbox/v1/clock/advance", { body: { ms: Number.MAX_SAFE_INTEGER } }),
      /^advance: /,
    );
    expect((await t.api("GET", "/sandbox/v1/clock")).body.data.now).toBe(before);
  });
});
