import { describe, expect, it } from "vitest";
import { useSandbox } from "../helpers/sandbox.js";

for (const socket of [false, true]) {
  describe(`GET /v1/numbers (spec 4.1) ${socket ? "over a socket" : "in-process"}`, () => {
    const t = useSandbox({ socket });

    it("lists the account's numbers from the fixture, online, in a list envelope", async () => {
      const res = await t.api("GET", "/v1/numbers");
      expect(res.status).toBe(200);
      expect(res.body.has_more).toBe(false);
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
      expect(res.body.data[0]).toEqual({
        handle: "+14155550101",
        channels: ["imessage", "sms"],
        label: "main",
        status: "online",
      });
      expect(res.body.data).toHaveLength(3);
    });
  });
}
