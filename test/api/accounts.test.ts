import { describe, expect, it } from "vitest";
import { emitEvent } from "../../src/domain/core/index.js";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { id, lifecycleFields } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";

const fixture = {
  accounts: [
    {
      name: "Acme",
      api_key: "sk_test_acme_0000000000000000",
      otp_api_key: "otp_live_acme_000000000000000",
      numbers: [{ handle: "+14155550101", channels: ["imessage", "sms"], label: "main" }],
    },
    {
      name: "Globex",
      api_key: "sk_live_globex_00000000000000",
      numbers: [{ handle: "+14155550111", channels: ["sms"], label: "alerts" }],
    },
  ],
};

describe("several accounts (docs/sandbox.md)", () => {
  const t = useSandbox({ fixture });

  it("each sees only its own numbers", async () => {
    const acme = await t.api("GET", "/v1/numbers");
    const globex = await t.api("GET", "/v1/numbers", { key: "sk_live_globex_00000000000000" });
    expect(acme.body.data.map((n: { handle: string }) => n.handle)).toEqual(["+14155550101"]);
    expect(globex.body.data.map((n: { handle: string }) => n.handle)).toEqual(["+14155550111"]);
  });

  it("each sees only its own events", async () => {
    const [acme, globex] = allAccounts(t.sandbox.ctx);
    t.sandbox.ctx.db.transaction(() => {
      emitEvent(t.sandbox.ctx, acme!.id, "message.sent", lifecycleFields("message.sent", { message_id: id("a") }));
      emitEvent(t.sandbox.ctx, globex!.id, "message.sent", lifecycleFields("message.sent", { message_id: id("g") }));
    });
    const seen = await t.api("GET", "/sandbox/v1/events", { key: "sk_live_globex_00000000000000" });
    expect(seen.body.data.map((e: { payload: { message_id: string } }) => e.payload.message_id)).toEqual([id("g")]);
  });

  it("generates keys left out of the fixture and shows them once", () => {
    const globex = t.sandbox.accounts.find((a) => a.name === "Globex");
    expect(globex?.otp_api_key).toMatch(/^otp_live_[0-9A-Za-z]{24}$/);
    expect(t.sandbox.generatedKeys).toEqual([{ account: "Globex", kind: "otp_api_key", key: globex?.otp_api_key }]);
  });

  it("uses a generated key like any other", async () => {
    const key = t.sandbox.accounts.find((a) => a.name === "Globex")?.otp_api_key ?? "";
    expect((await t.otp("GET", "/sandbox/v1/clock", { key })).status).toBe(200);
  });
});
