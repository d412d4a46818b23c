import { describe, expect, it, vi } from "vitest";
import { allColumns, compileOnce, openDatabase } from "../../src/store/engine/index.js";

describe("compileOnce: build a query once, bind new arguments each call", () => {
  it("keeps the SQL and puts the arguments where their placeholders were", () => {
    const query = compileOnce<[string, number], unknown>((q, arg) =>
      q
        .selectFrom("messages")
        .select("id")
        .where("account_id", "=", arg(0))
        .where("created_at", "<", arg(1))
        .where("direction", "=", "inbound")
        .limit(5),
    );
    const first = query("a", 1).compile();
    const second = query("b", 2).compile();
    expect(second.sql).toBe(first.sql);
    expect(first.parameters).toEqual(["a", 1, "inbound", 5]);
    expect(second.parameters).toEqual(["b", 2, "inbound", 5]);
  });

  it("binds arguments used once each, in order, as they come", () => {
    const query = compileOnce<[string, number], unknown>((q, arg) =>
      q.selectFrom("messages").select("id").where("account_id", "=", arg(0)).where("created_at", "<", arg(1)),
    );
    expect(query("a", 1).compile().parameters).toEqual(["a", 1]);
    expect(query("b", 2).compile().parameters).toEqual(["b", 2]);
  });

  it("binds an argument used twice, or out of order, in each of its places", () => {
    const query = compileOnce<[string, number], unknown>((q, arg) =>
      q
        .selectFrom("messages")
        .select("id")
        .where("created_at", "<", arg(1))
        .where("account_id", "=", arg(0))
        .where("conversation_id", "=", arg(0)),
    );
    expect(query("a", 1).compile().parameters).toEqual([1, "a", "a"]);
  });
});

describe("compileOnce: the database runs a bound query by its SQL", () => {
  it("reads and writes without compiling the query again", async () => {
    const db = await openDatabase(":memory:");
    try {
      const insert = compileOnce<[string, string], unknown>((q, arg) =>
        q.insertInto("meta").values({ key: arg(0), value: arg(1) }),
      );
      const read = compileOnce<[string], { value: string }>((q, arg) =>
        q.selectFrom("meta").select("value").where("key", "=", arg(0)),
      );
      const write = insert("speed", "fast");
      const compile = vi.spyOn(write, "compile");
      expect(db.run(write).changes).toBe(1);
      const query = read("speed");
      const compileRead = vi.spyOn(query, "compile");
      expect(db.first(query)).toEqual({ value: "fast" });
      expect(compile).not.toHaveBeenCalled();
      expect(compileRead).not.toHaveBeenCalled();
    } finally {
      db.close();
    }
  });
});

describe("allColumns: the column list of an insert compiled once", () => {
  interface Row {
    id: string;
    text: string;
    created_at: number;
  }

  it("takes a list naming every column, in its own order", () => {
    expect(allColumns<Row>()(["created_at", "id", "text"])).toEqual(["created_at", "id", "text"]);
  });

  it("refuses, at type-check time, a list that leaves a column out or names one the table lacks", () => {
    // `npm test` type-checks the tests first: each line below fails that check without its directive.
    // @ts-expect-error: "text" is missing
    allColumns<Row>()(["id", "created_at"]);
    // @ts-expect-error: "body" is not a column
    allColumns<Row>()(["id", "text", "created_at", "body"]);
  });
});
