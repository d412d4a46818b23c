import { z } from "zod";
import { describe, expect, it } from "vitest";
import { parseInput } from "../../src/lib/validation.js";

/** The words of a 400 (docs/spec-decisions.md, Input limits): plain, naming the field. */
describe("parseInput's messages", () => {
  const schema = z.strictObject({
    name: z.string().min(3).max(5).optional(),
    title: z.string().min(1).optional(),
    tags: z.array(z.string()).min(1).max(2).optional(),
    count: z.number().int().min(1).max(10).optional(),
    ratio: z.number().gt(0).lt(1).optional(),
    kind: z.enum(["a", "b"]).optional(),
    only: z.literal("x").optional(),
    needed: z.boolean(),
  });
  const message = (input: unknown) => {
    try {
      parseInput(schema, input);
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };

  it.each([
    [{}, "needed: required"],
    [{ needed: "yes" }, "needed: must be a boolean, not a string"],
    [{ needed: true, name: "ab" }, "name: must be at least 3 characters"],
    [{ needed: true, name: "abcdef" }, "name: must be at most 5 characters"],
    [{ needed: true, title: "" }, "title: must not be empty"],
    [{ needed: true, tags: [] }, "tags: must not be empty"],
    [{ needed: true, tags: ["a", "b", "c"] }, "tags: must have at most 2 items"],
    [{ needed: true, count: 0 }, "count: must be at least 1"],
    [{ needed: true, count: 11 }, "count: must be at most 10"],
    [{ needed: true, ratio: 0 }, "ratio: must be more than 0"],
    [{ needed: true, ratio: 1 }, "ratio: must be less than 1"],
    [{ needed: true, kind: "c" }, 'kind: must be one of "a", "b"'],
    [{ needed: true, only: "y" }, 'only: must be "x"'],
    [null, "body: must be an object, not null"],
    [[], "body: must be an object, not an array"],
    [{ needed: true }, "accepted"],
  ])("%j: %s", (input, expected) => {
    expect(message(input)).toBe(expected);
  });
});
