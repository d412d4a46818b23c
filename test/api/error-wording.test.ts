import { describe, expect, it } from "vitest";
import { deliveredIMessage, resetBeforeEach } from "../helpers/messages.js";
import { useSandbox, type Answer } from "../helpers/sandbox.js";

/**
 * What a 400 says (docs/spec-decisions.md: "the message naming the field"): a missing field is
 * "required", a wrong type names the type wanted and the one given, in every body of both hosts.
 * A text's 20,000 characters are characters (code points), not UTF-16 units.
 */
describe("400 messages in plain words", () => {
  const t = useSandbox();
  resetBeforeEach(t);

  const said = (res: Answer) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe("invalid_request");
    return res.body.message as string;
  };

  it("a missing field is required; a wrong type names both types; a value outside a list names the list", async () => {
    const delivered = await deliveredIMessage(t);
    expect(said(await t.api("POST", "/v1/webhooks", { body: {} }))).toBe("url: required");
    expect(said(await t.api("POST", "/v1/webhooks", { body: { url: null } }))).toBe("url: must be a string, not null");
    expect(said(await t.api("POST", `/v1/messages/${delivered.id}/react`, { body: {} }))).toBe("reaction: required");
    expect(said(await t.api("POST", `/v1/messages/${delivered.id}/edit`, { body: { text: 5 } }))).toBe(
      "text: must be a string, not a number",
    );
    expect(said(await t.api("POST", `/v1/chats/${delivered.conversation_id}/typing`, { body: {} }))).toBe(
      "typing: required",
    );
    expect(
      said(await t.api("POST", `/v1/chats/${delivered.conversation_id}/typing`, { body: { typing: "yes" } })),
    ).toBe("typing: must be a boolean, not a string");
    expect(
      said(
        await t.api("POST", "/v1/messages", {
          body: { to: "+14155550191", from_handle: "+14155550101", text: "hi", media_quality: "best" },
        }),
      ),
    ).toBe('media_quality: must be one of "fit", "original"');
    expect(said(await t.otp("POST", "/v1/challenges", { body: "null" }))).toBe("body: must be an object, not null");
    expect(said(await t.otp("POST", "/v1/challenges", { body: "[]" }))).toBe("body: must be an object, not an array");
    expect(said(await t.api("POST", "/sandbox/v1/accounts", { body: { number_count: 0 } }))).toBe(
      "number_count: must be at least 1",
    );
    expect(said(await t.api("POST", "/sandbox/v1/clock/advance", { body: { ms: -1 } }))).toBe("ms: must be at least 0");
  });

  it("an edit or unsend of a failed message says it failed and how to go on, not that it was not sent yet", async () => {
    // An Android phone that never wrote first: the send fails.
    const sent = (
      await t.api("POST", "/v1/messages", { body: { to: "+14155550192", from_handle: "+14155550101", text: "hi" } })
    ).body.data;
    await t.advance(200);
    expect((await t.api("GET", `/v1/messages/${sent.id}`)).body.data.status).toBe("failed");
    for (const action of ["edit", "unsend"]) {
      const res = await t.api("POST", `/v1/messages/${sent.id}/${action}`, {
        body: action === "edit" ? { text: "x" } : {},
      });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe(
        "The message failed and was never sent: retry it first (POST /v1/messages/:id/retry)",
      );
    }
  });

  it("a text of 20,000 emoji is 20,000 characters: taken on send and edit; one more is refused", async () => {
    const emoji = "😀".repeat(20_000);
    const sent = await t.api("POST", "/v1/messages", {
      body: { to: "+14155550191", from_handle: "+14155550101", text: emoji },
    });
    expect(sent.status).toBe(202);
    expect(
      said(
        await t.api("POST", "/v1/messages", {
          body: { to: "+14155550191", from_handle: "+14155550101", text: `${emoji}x` },
        }),
      ),
    ).toMatch(/^text: /);
    const delivered = await deliveredIMessage(t);
    expect((await t.api("POST", `/v1/messages/${delivered.id}/edit`, { body: { text: emoji } })).status).toBe(200);
    expect(said(await t.api("POST", `/v1/messages/${delivered.id}/edit`, { body: { text: `${emoji}😀` } }))).toMatch(
      /^text: /,
    );
  });
});
