import { z } from "zod";

/** A schema of the contract, as routes name it for their documentation. */
export type Schema = z.ZodType;

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/**
 * A contract schema as JSON Schema (draft 2020-12, OpenAPI 3.1's dialect): `input` for request
 * bodies and queries, `output` for answers. Refinements that JSON Schema cannot say are left out;
 * schemas named with `.meta({ id })` land in `$defs`.
 */
export function toJsonSchema(schema: Schema, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", reused: "inline" }) as JsonSchema;
}
