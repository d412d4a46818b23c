import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { runCli } from "../helpers/cli.js";
import { conformanceChecker } from "../helpers/openapi-conformance.js";

/**
 * The OpenAPI documents of both hosts (docs/sandbox.md): valid OpenAPI 3.1 by an independent
 * validator, served at /openapi.json without a key, and printed by `msgctl openapi`. That real
 * answers conform to them is checked by every API suite (test/helpers/openapi-conformance.ts).
 */
describe("the OpenAPI documents", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await launchSandbox({ listen: false });
  });
  afterAll(() => sandbox.stop());

  const documentOf = async (app: Sandbox["messagingApp"]) => {
    const res = await app.request("http://127.0.0.1:4010/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    return res.json();
  };

  it.each(["messaging", "otp"] as const)("the %s host's is valid OpenAPI 3.1, served without a key", async (host) => {
    const document = await documentOf(host === "otp" ? sandbox.otpApp : sandbox.messagingApp);
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every route of the messaging host, each with its key, errors in the spec's shape and unique operation ids", async () => {
    const document = await documentOf(sandbox.messagingApp);
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(
      ([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    for (const path of [
      "/v1/messages",
      "/v1/messages/{id}",
      "/v1/webhooks",
      "/v1/chats",
      "/v1/numbers",
      "/sandbox/v1/clock/advance",
      "/healthz",
      "/openapi.json",
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    expect(document.components.securitySchemes.messagingKey).toMatchObject({ type: "http", scheme: "bearer" });
    const send = document.paths["/v1/messages"].post;
    expect(send.security).toEqual([{ messagingKey: [] }]);
    expect(send.responses["202"].content["application/json"].schema.properties.data).toEqual({
      $ref: "#/components/schemas/Message",
    });
    expect(send.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(document.paths["/healthz"].get.security).toEqual([]);
    expect(document.components.schemas.Error.required).toEqual(["error", "message", "request_id"]);
  });

  it("marks the bodies a route needs as required, and documents downloads, 429 and the document itself as they answer", async () => {
    const { paths } = await documentOf(sandbox.messagingApp);
    for (const [path, method] of <[string, string][]>[
      ["/v1/messages", "post"],
      ["/v1/chats", "post"],
      ["/v1/chats/{id}", "patch"],
      ["/v1/webhooks", "post"],
      ["/v1/attachments/presign", "post"],
      ["/sandbox/v1/clock/advance", "post"],
    ]) {
      expect(paths[path][method].requestBody.required, `${method} ${path}`).toBe(true);
    }
    for (const [path, method] of <[string, string][]>[
      ["/sandbox/v1/reset", "post"],
      ["/sandbox/v1/accounts", "post"],
      ["/sandbox/v1/contacts/{handle}", "patch"],
      ["/sandbox/v1/messages/{id}/fail", "post"],
    ]) {
      expect(paths[path][method].requestBody.required, `${method} ${path}`).toBe(false);
    }
    const download = paths["/media/{id}"].get;
    expect(Object.keys(download.responses)).toEqual(expect.arrayContaining(["200", "206", "403", "404", "409", "416"]));
    expect(Object.keys(download.responses["200"].content)).toEqual(["*/*"]);
    expect(download.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["Range", "If-Range"]),
    );
    const otp = await documentOf(sandbox.otpApp);
    expect(otp.paths["/v1/challenges"].post.responses["429"].headers["Retry-After"].schema).toEqual({
      type: "integer",
    });
    expect(paths["/openapi.json"].get.responses["200"].content["application/json"].schema).toEqual({ type: "object" });
  });

  it("describes every conversations route (spec 4.5) with the contract's Chat and the spec's error codes", async () => {
    const document = await documentOf(sandbox.messagingApp);
    const chatRoutes = {
      "/v1/chats": ["get", "post"],
      "/v1/chats/{id}": ["get", "patch"],
      "/v1/chats/{id}/participants": ["post"],
      "/v1/chats/{id}/participants/{handle}": ["delete"],
      "/v1/chats/{id}/read": ["post"],
      "/v1/chats/{id}/typing": ["post"],
      "/sandbox/v1/chats/{id}/remote": ["get"],
      "/sandbox/v1/simulate/rename": ["post"],
      "/sandbox/v1/simulate/participants": ["post"],
    };
    for (const [path, methods] of Object.entries(chatRoutes))
      expect(Object.keys(document.paths[path] ?? {}).sort(), path).toEqual(methods.sort());
    const codesOf = (path: string, method: string, status: number) =>
      document.paths[path][method].responses[String(status)].content["application/json"].schema.allOf[1].properties
        .error.enum;
    const chat = { $ref: "#/components/schemas/Chat" };

    const list = document.paths["/v1/chats"].get;
    expect(list.responses["200"].content["application/json"].schema.properties.data).toEqual({
      type: "array",
      items: chat,
    });
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(["limit", "before"]);

    const create = document.paths["/v1/chats"].post;
    expect(create.requestBody.content["application/json"].schema.properties.addresses).toMatchObject({
      minItems: 2,
      maxItems: 31,
    });
    expect(create.responses["201"].content["application/json"].schema.properties.data).toEqual(chat);
    expect(create.responses["200"].content["application/json"].schema.properties.data).toEqual(chat);
    expect(create.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header" }));
    expect(codesOf("/v1/chats", "post", 400)).toEqual(["invalid_request", "invalid_from_handle"]);
    expect(codesOf("/v1/chats", "post", 409)).toEqual(["invalid_state"]);

    for (const [path, method] of [
      ["/v1/chats/{id}", "patch"],
      ["/v1/chats/{id}/participants", "post"],
      ["/v1/chats/{id}/participants/{handle}", "delete"],
    ] as const) {
      expect(codesOf(path, method, 409), `${method} ${path}`).toEqual(["not_a_group", "invalid_state"]);
      expect(codesOf(path, method, 404)).toEqual(["not_found"]);
      expect(document.paths[path][method].responses["200"].content["application/json"].schema.properties.data).toEqual(
        chat,
      );
    }
    expect(codesOf("/v1/chats/{id}/read", "post", 409)).toEqual(["invalid_state"]);
    expect(codesOf("/v1/chats/{id}/typing", "post", 409)).toEqual(["invalid_state"]);
    expect(
      document.paths["/v1/chats/{id}/typing"].post.requestBody.content["application/json"].schema.required,
    ).toEqual(["typing"]);
    expect(codesOf("/sandbox/v1/simulate/rename", "post", 409)).toEqual(["not_a_group", "invalid_state"]);
    expect(
      document.paths["/sandbox/v1/simulate/inbound"].post.requestBody.content["application/json"].schema.properties,
    ).toHaveProperty("members");
    expect(create.responses["409"].description).toMatch(/^invalid_state: /);

    // The API suites' conformance check holds each answer to these codes.
    const check = conformanceChecker(document);
    const answer = (error: string) => ({
      method: "POST",
      path: "/v1/chats",
      status: 409,
      contentType: "application/json",
      body: { error, message: "m", request_id: "r" },
    });
    expect(check(answer("invalid_state"))).toBeUndefined();
    expect(check(answer("not_a_group"))).toMatch(/POST \/v1\/chats → 409: .*allowed values/);
  });

  it("describes every route of the OTP host: the challenges with the spec's OTP errors, and the OTP control API", async () => {
    const document = await documentOf(sandbox.otpApp);
    for (const path of [
      "/v1/challenges",
      "/v1/challenges/{id}",
      "/v1/challenges/{id}/consume",
      "/sandbox/v1/otp/texts",
      "/sandbox/v1/otp/challenges/{id}/texts",
      "/sandbox/v1/otp/fault",
      "/sandbox/v1/clock/advance",
      "/healthz",
      "/openapi.json",
    ]) {
      expect(document.paths[path], path).toBeDefined();
    }
    // The messaging API is not the OTP host's.
    expect(document.paths["/v1/messages"]).toBeUndefined();
    expect(document.components.securitySchemes.otpKey).toMatchObject({ type: "http", scheme: "bearer" });

    const create = document.paths["/v1/challenges"].post;
    expect(create.security).toEqual([{ otpKey: [] }]);
    expect(create.requestBody.content["application/json"].schema).toMatchObject({
      required: ["phone"],
      additionalProperties: false,
    });
    expect(create.responses["201"].content["application/json"].schema.properties.data).toEqual({
      $ref: "#/components/schemas/CreatedChallenge",
    });
    // Spec section 7's OTP statuses: 400 invalid_request/invalid_phone, 401, 403 forbidden, 429 rate_limited, 503 unavailable.
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "429", "503"]));
    expect(Object.keys(document.paths["/v1/challenges/{id}"].get.responses)).toEqual(
      expect.arrayContaining(["200", "401", "403", "404", "503"]),
    );
    const consume = document.paths["/v1/challenges/{id}/consume"].post;
    expect(Object.keys(consume.responses)).toEqual(
      expect.arrayContaining(["200", "401", "403", "404", "409", "410", "503"]),
    );
    expect(consume.responses["200"].content["application/json"].schema.properties.data).toEqual({
      $ref: "#/components/schemas/Challenge",
    });
    expect(document.components.schemas.CreatedChallenge.required).toEqual([
      "id",
      "code",
      "phone",
      "expires_at",
      "send_to",
      "whatsapp",
    ]);
    expect(document.components.schemas.Challenge.properties.status.enum).toEqual([
      "pending",
      "verified",
      "consumed",
      "expired",
    ]);

    expect(
      document.paths["/sandbox/v1/otp/texts"].post.responses["201"].content["application/json"].schema.properties.data,
    ).toEqual({ $ref: "#/components/schemas/OtpTextResult" });
    expect(document.paths["/sandbox/v1/otp/texts"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "limit",
      "before",
      "phone",
    ]);
    expect(
      document.paths["/sandbox/v1/otp/fault"].post.responses["200"].content["application/json"].schema.properties.data,
    ).toEqual({ $ref: "#/components/schemas/OtpFaults" });
    for (const methods of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(methods)) expect(op.tags.length, op.operationId).toBe(1);
    }
  });

  it("msgctl openapi --host otp prints the document the OTP host serves", async () => {
    const printed = await runCli(["openapi", "--host", "otp"]);
    expect(printed.code, printed.stderr).toBe(0);
    const served = await documentOf(sandbox.otpApp);
    expect(JSON.parse(printed.stdout)).toEqual({ ...served, servers: [{ url: "http://127.0.0.1:4011" }] });
  });
});
