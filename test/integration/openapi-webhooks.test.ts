import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocumentOf } from "../../src/runtime/openapi.js";
import { deliveriesOfEveryEvent, type RealDelivery } from "../helpers/real-deliveries.js";

/**
 * The messaging document's `webhooks` (OpenAPI 3.1): the POST made to an endpoint for each event of
 * spec section 6, with its payload, its headers and the delivery rules, checked against real
 * signed deliveries; and operation ids that are identifiers in both documents.
 */

/** Spec section 6's events, as the service names them. */
const EVENTS = [
  "message.received",
  "message.sent",
  "message.delivered",
  "message.read",
  "message.edited",
  "message.failed",
  "message.reaction",
  "conversation.typing",
  "conversation.renamed",
];

type Doc = Record<string, any>;

describe("the webhooks of the messaging document", () => {
  let doc: Doc;
  let deliveries: RealDelivery[];
  beforeAll(async () => {
    doc = await openApiDocumentOf("messaging");
    deliveries = await deliveriesOfEveryEvent();
  });

  it("lists every event of spec section 6, each a POST of its payload with the three headers and the rules", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENTS].sort());
    for (const type of EVENTS) {
      const post = doc.webhooks[type].post;
      expect(Object.keys(doc.webhooks[type]), type).toEqual(["post"]);
      const schema = post.requestBody.content["application/json"].schema;
      const payload = schema.$ref ? doc.components.schemas[schema.$ref.split("/").pop()] : schema;
      expect(payload.properties.type, type).toEqual({ type: "string", const: type });
      const required = post.parameters.filter((p: any) => p.required).map((p: any) => [p.in, p.name]);
      expect(required, type).toEqual([
        ["header", "X-service-Signature"],
        ["header", "X-Msgctl-Event-Id"],
        ["header", "X-Msgctl-Attempt"],
      ]);
      expect(post.description).toContain("any 2xx within 10s");
      expect(post.description).toContain("retried after 5s, 1m, 10m, 1h, 4h, 8h, 12h (8 attempts in all");
      expect(post.description).toContain("Dedupe on X-Msgctl-Event-Id");
      expect(Object.keys(post.responses)).toEqual(["2XX", "4XX", "5XX"]);
    }
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Webhook events");
  });

  it("real deliveries of every event match their webhook: the payload schema and each header's", () => {
    expect(new Set(deliveries.map((d) => d.type))).toEqual(new Set(EVENTS));
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
    const compile = (schema: unknown) =>
      ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
    for (const delivery of deliveries) {
      const post = doc.webhooks[delivery.type].post;
      const body = compile(post.requestBody.content["application/json"].schema);
      expect(body(JSON.parse(delivery.body)), `${delivery.type}: ${JSON.stringify(body.errors)}`).toBe(true);
      for (const parameter of post.parameters) {
        const value = delivery.headers[parameter.name.toLowerCase()];
        if (value === undefined) {
          expect(parameter.required, `${delivery.type}: ${parameter.name} missing`).toBe(false);
          continue;
        }
        const typed = parameter.schema.type === "integer" ? Number(value) : value;
        expect(compile(parameter.schema)(typed), `${delivery.type}: ${parameter.name} ${value}`).toBe(true);
      }
    }
  });

  it.each(["messaging", "otp"] as const)(
    "the %s document: every operation id is an identifier, unique across paths and webhooks",
    async (host) => {
      const document = host === "messaging" ? doc : await openApiDocumentOf(host);
      const operations = [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})].flatMap(
        (item: any) => Object.values(item) as { operationId?: string }[],
      );
      const ids = operations.map((op) => op.operationId);
      for (const id of ids) expect(id).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
      expect(new Set(ids).size).toBe(ids.length);
      expect(document.paths["/openapi.json"].get.operationId).toBe("getOpenapiJson");
      if (host === "messaging") expect(document.webhooks["message.sent"].post.operationId).toBe("messageSentWebhook");
      else expect(document.webhooks).toBeUndefined();
    },
  );
});
