import { describe, expect, it } from "vitest";
import { compileOnce } from "../../src/store/compiled-query.js";

describe("compileOnce: build a query once, bind new arguments each call", () => {
  it("keeps the SQL and puts the arguments where their placeholders were", () => {
    const query = compileOnce<[string, number], unknown>((q, arg) =>
      q.selectFrom("messages").select("id").where("account_id", "=", arg(0)).where("created_at", "<", arg(1)).where("direction", "=", "inbound").limit(5),
    );
    const first = query("a", 1).compile();
    const second = query("b", 2).compile();
    expect(second.sql).toBe(first.sql);
    expect(first.parameters).toEqual(["a", 1, "inbound", 5]);
    expect(second.parameters).toEqual(["b", 2, "inbound", 5]);
  });
});
