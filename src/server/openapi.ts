import { errorBody } from "../contract/common.js";
import { toJsonSchema, type JsonSchema, type Schema } from "../contract/json-schema.js";
import { TAG_DESCRIPTIONS, type TagName } from "./openapi-tags.js";
import { webhooksSection } from "./openapi-webhooks.js";
import type { ResponseDoc, Route, RouteDoc } from "./route.js";

/**
 * The OpenAPI 3.1 document of a host (`/openapi.json`, `msgctl openapi`), generated from its
 * route table: every schema in it is a contract schema the domain validates with or answers to,
 * converted by zod. Nothing is written by hand beside the routes and the webhooks (openapi-webhooks.ts).
 */

/** Which host a document describes. */
export type HostName = "messaging" | "otp";

type Document = Record<string, unknown> & {
  components: { schemas: Record<string, JsonSchema> } & Record<string, unknown>;
};

const HOSTS: Record<
  HostName,
  { title: string; description: string; scheme: string; keyDescription: string; port: number }
> = {
  messaging: {
    title: "Messaging API (msgctl sandbox)",
    description:
      "Send and receive iMessage, SMS and WhatsApp from business numbers, with attachments, conversations, group chats and signed webhooks (spec sections 1-6), plus the sandbox's control API under /sandbox/v1.",
    scheme: "messagingKey",
    keyDescription:
      "A messaging API key: `sk_live_…` or `sk_test_…` (spec section 5). An OTP key here is 401 unauthorized.",
    port: 4010,
  },
  otp: {
    title: "OTP service (msgctl sandbox)",
    description:
      "Phone verification where the user texts a six-digit code (spec sections 1-4.6), plus the sandbox's control API under /sandbox/v1. It sends no webhooks; poll the challenge.",
    scheme: "otpKey",
    keyDescription: "An OTP API key: `otp_live_…` (spec section 5). A messaging key here is 401 unauthorized.",
    port: 4011,
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: "invalid_request (the message names the field) or another 400 code of spec section 7",
  401: "unauthorized: missing, malformed or unknown key, or a key of the other host's kind",
  403: "forbidden, or a tampered or expired signed URL; forbidden_host or forbidden_origin for a Host or Origin header that is not the sandbox's",
  404: "not_found: unknown or malformed id, or another account's",
  409: "invalid_state, or another 409 code of spec section 7",
  410: "expired",
  413: "payload_too_large: a JSON body over 1 MiB or a file over 100 MiB",
  415: "unsupported_media_type",
  429: "rate_limited",
  503: "unavailable: safe to retry",
};

/**
 * The 403s every route can answer before any key is read: who may talk to the sandbox
 * (server/host-guard.ts). GET /healthz answers any Host, so only the Origin one there.
 */
const GUARD_CODES = {
  forbidden_host:
    "the Host header is not one of the sandbox's names (localhost, *.localhost, 127.0.0.0/8, [::1], the listen address, --allowed-hosts)",
  forbidden_origin: "an Origin header (null included) that is not one of the sandbox's own http origins",
};

function guardCodes(route: Route): Record<string, string> {
  return route.anyHost ? { forbidden_origin: GUARD_CODES.forbidden_origin } : GUARD_CODES;
}

/** Converts a contract schema, hoisting the schemas it names (`.meta({ id })`) into components. */
function convert(schema: Schema, io: "input" | "output", components: Record<string, JsonSchema>): JsonSchema {
  const json = toJsonSchema(schema, io);
  return hoist(json, components);
}

function hoist(json: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const { $schema: _schema, $defs, ...rest } = json as JsonSchema & { $defs?: Record<string, JsonSchema> };
  for (const [name, def] of Object.entries($defs ?? {})) components[name] ??= rewriteRefs(def) as JsonSchema;
  return rewriteRefs(rest) as JsonSchema;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === "$ref" && typeof inner === "string"
          ? inner.replace("#/$defs/", "#/components/schemas/")
          : rewriteRefs(inner),
      ]),
    );
  }
  return value;
}

/**
 * An operation's id: its method and path as one identifier (`getV1MessagesId`, `getOpenapiJson`),
 * letters and digits only, as every code generator accepts.
 */
const operationId = (route: Route) =>
  route.method.toLowerCase() +
  route.path
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("");

function parameters(doc: RouteDoc, components: Record<string, JsonSchema>): JsonSchema[] {
  const found: JsonSchema[] = Object.entries(doc.params ?? {}).map(([name, description]) => ({
    name,
    in: "path",
    required: true,
    description,
    schema: { type: "string" },
  }));
  if (doc.query) {
    const query = convert(doc.query, "input", components) as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      const { description, ...rest } = schema;
      found.push({
        name,
        in: "query",
        required: query.required?.includes(name) ?? false,
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  }
  for (const [name, description] of Object.entries(doc.headers ?? {}))
    found.push({ name, in: "header", required: false, description, schema: { type: "string" } });
  return found;
}

function successResponse(answer: ResponseDoc, components: Record<string, JsonSchema>): JsonSchema {
  if (answer.raw) {
    const schema =
      answer.raw === "application/octet-stream" || answer.raw === "*/*"
        ? { type: "string", format: "binary" }
        : answer.raw === "application/json"
          ? answer.schema
            ? convert(answer.schema, "output", components)
            : { type: "object" }
          : { type: "string" };
    return { description: answer.description, content: { [answer.raw]: { schema } } };
  }
  const data = answer.schema ? convert(answer.schema, "output", components) : {};
  const schema = answer.list
    ? {
        type: "object",
        properties: {
          data: { type: "array", items: data },
          has_more: { type: "boolean" },
          request_id: { type: "string" },
        },
        required: ["data", "has_more", "request_id"],
        additionalProperties: false,
      }
    : {
        type: "object",
        properties: { data, request_id: { type: "string" } },
        required: ["data", "request_id"],
        additionalProperties: false,
      };
  return {
    description: answer.description,
    headers: { "X-Request-Id": { $ref: "#/components/headers/RequestId" } },
    content: { "application/json": { schema } },
  };
}

function errorStatuses(route: Route): number[] {
  const doc = route.doc;
  const statuses = new Set<number>([403, ...(doc.errors ?? []), ...Object.keys(doc.errorCodes ?? {}).map(Number)]);
  if (route.auth !== false) statuses.add(401);
  if (doc.body || doc.query || doc.upload) statuses.add(400);
  if (doc.body || doc.upload) {
    statuses.add(413);
    statuses.add(415);
  }
  if (route.path.includes(":")) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * The codes a route's error status may carry, when they are all known: a 403 adds the guard's
 * to the route's own (a route with a 403 of its own but no codes keeps the general description).
 */
function codesOf(route: Route, status: number): Record<string, string> | undefined {
  const own = route.doc.errorCodes?.[status];
  if (status !== 403) return own;
  if (own) return { ...own, ...guardCodes(route) };
  return route.doc.errors?.includes(403) ? undefined : guardCodes(route);
}

/** An error answer: the shared Error shape; where the route names its codes, `error` is one of them. */
function errorResponse(status: number, codes: Record<string, string> | undefined): JsonSchema {
  const error = { $ref: "#/components/schemas/Error" };
  const description = codes
    ? Object.entries(codes)
        .map(([code, when]) => `${code}: ${when}`)
        .join("; ")
    : (ERROR_TEXT[status] ?? "an error");
  const schema = codes
    ? { allOf: [error, { properties: { error: { type: "string", enum: Object.keys(codes) } } }] }
    : error;
  const headers: Record<string, JsonSchema> = { "X-Request-Id": { $ref: "#/components/headers/RequestId" } };
  if (status === 429)
    headers["Retry-After"] = { description: "seconds to wait before trying again", schema: { type: "integer" } };
  return { description, headers, content: { "application/json": { schema } } };
}

function operation(route: Route, host: HostName, components: Record<string, JsonSchema>): JsonSchema {
  const { doc } = route;
  const responses: Record<string, JsonSchema> = {};
  for (const [status, answer] of Object.entries(doc.responses)) responses[status] = successResponse(answer, components);
  for (const status of errorStatuses(route)) responses[String(status)] = errorResponse(status, codesOf(route, status));
  const op: JsonSchema = { operationId: operationId(route), summary: doc.summary, tags: [doc.tag], responses };
  if (doc.description) op.description = doc.description;
  const params = parameters(doc, components);
  if (params.length > 0) op.parameters = params;
  if (doc.body)
    op.requestBody = {
      required: !doc.bodyOptional,
      content: { "application/json": { schema: convert(doc.body, "input", components) } },
    };
  if (doc.upload === "multipart") {
    const files = {
      type: "array",
      items: { type: "string", format: "binary" },
      minItems: 1,
      maxItems: 10,
      description: "one or more `file` parts",
    };
    op.requestBody = {
      required: true,
      content: {
        "multipart/form-data": { schema: { type: "object", properties: { file: files }, required: ["file"] } },
      },
    };
  }
  if (doc.upload === "bytes")
    op.requestBody = { required: true, content: { "*/*": { schema: { type: "string", format: "binary" } } } };
  op.security = route.auth === false ? [] : [{ [HOSTS[host].scheme]: [] }];
  return op;
}

/** The OpenAPI 3.1 document of one host's routes. */
export function openApiDocument(
  host: HostName,
  routes: readonly Route[],
  options: { version: string; serverUrl?: string },
): Document {
  const meta = HOSTS[host];
  const components: Record<string, JsonSchema> = { Error: convert(errorBody, "output", {}) };
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, host, components);
  }
  // Only the messaging host sends webhooks (spec section 6, rule 7).
  const webhooks =
    host === "messaging" ? webhooksSection((schema) => convert(schema, "output", components)) : undefined;
  const tags: TagName[] = [...new Set(routes.map((route) => route.doc.tag))];
  if (webhooks) tags.push("Webhook events");
  return {
    openapi: "3.1.0",
    info: {
      title: meta.title,
      version: options.version,
      description: `${meta.description} Every GET operation also answers HEAD: its status and headers, no body.`,
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: options.serverUrl ?? `http://127.0.0.1:${meta.port}` }],
    security: [{ [meta.scheme]: [] }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] })),
    paths,
    ...(webhooks ? { webhooks } : {}),
    components: {
      schemas: components,
      securitySchemes: { [meta.scheme]: { type: "http", scheme: "bearer", description: meta.keyDescription } },
      headers: {
        RequestId: { description: "The request id, also in the body's request_id", schema: { type: "string" } },
      },
    },
  };
}
