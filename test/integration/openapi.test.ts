import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/sandbox.js";
import { runCli } from "../helpers/cli.js";

/**
 * The OpenAPI documents of both hosts (SANDBOX.md section 1): valid OpenAPI 3.1 by an independent
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
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method, op })),
    );
    for (const path of ["/v1/messages", "/v1/messages/{id}", "/v1/webhooks", "/v1/chats", "/v1/numbers", "/sandbox/v1/clock/advance", "/healthz", "/openapi.json"]) {
      expect(document.paths[path], path).toBeDefined();
    }
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    expect(document.components.securitySchemes.messagingKey).toMatchObject({ type: "http", scheme: "bearer" });
    const send = document.paths["/v1/messages"].post;
    expect(send.security).toEqual([{ messagingKey: [] }]);
    expect(send.responses["202"].content["application/json"].schema.properties.data).toEqual({ $ref: "#/components/schemas/Message" });
    expect(send.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(document.paths["/healthz"].get.security).toEqual([]);
    expect(document.components.schemas.Error.required).toEqual(["error", "message", "request_id"]);
  });

  it("msgctl openapi --host otp prints the document the OTP host serves", async () => {
    const printed = await runCli(["openapi", "--host", "otp"]);
    expect(printed.code, printed.stderr).toBe(0);
    const served = await documentOf(sandbox.otpApp);
    expect(JSON.parse(printed.stdout)).toEqual({ ...served, servers: [{ url: "http://127.0.0.1:4011" }] });
  });
});
