import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { createGroup } from "../helpers/groups.js";
import { IPHONE, MAIN, resetBeforeEach, send } from "../helpers/messages.js";
import { useSandbox } from "../helpers/sandbox.js";

/**
 * The OpenAPI document states the limits the server keeps, so a generated client learns the real
 * rules: a value the document refuses, the server refuses too, and the reverse, for group titles
 * (100 characters), reactions (the named ones or one emoji), webhook event names and id filters.
 */

type Doc = Record<string, any>;

describe("the messaging document's limits are the server's", () => {
  const t = useSandbox();
  resetBeforeEach(t);
  let doc: Doc;
  let ajv: Ajv2020;
  beforeAll(async () => {
    doc = (await t.api("GET", "/openapi.json")).body;
    ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  });

  /** Whether the document accepts `body` for that operation. */
  const documentAccepts = (path: string, method: string, body: unknown): boolean => {
    const schema = doc.paths[path][method].requestBody.content["application/json"].schema;
    return ajv.validate(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')), body);
  };
  /** The document's rule and the server's answer agree: `accepted` by both, or refused by both with 400. */
  const expectBothTo = async (accepted: boolean, path: string, method: string, body: any, call: () => Promise<any>) => {
    expect(documentAccepts(path, method, body), `the document on ${JSON.stringify(body).slice(0, 80)}`).toBe(accepted);
    const res = await call();
    if (accepted) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    else expect(res.status, JSON.stringify(res.body)).toBe(400);
  };

  it("a group title: 100 characters on create, rename and a simulated rename (the document said 1000)", async () => {
    const title = doc.paths["/v1/chats"].post.requestBody.content["application/json"].schema.properties.title;
    expect(title.anyOf[0]).toMatchObject({ type: "string", minLength: 1, maxLength: 100 });
    for (const [length, accepted] of [
      [100, true],
      [101, false],
    ] as const) {
      const name = "x".repeat(length);
      const create = { from_handle: MAIN, addresses: ["+14155550150", "+14155550151"], message: "hi", title: name };
      await expectBothTo(accepted, "/v1/chats", "post", create, () => t.api("POST", "/v1/chats", { body: create }));
      const group = await createGroup(t);
      await expectBothTo(accepted, "/v1/chats/{id}", "patch", { title: name }, () =>
        t.api("PATCH", `/v1/chats/${group.id}`, { body: { title: name } }),
      );
      const rename = { conversation_id: group.id, title: name };
      await expectBothTo(accepted, "/sandbox/v1/simulate/rename", "post", rename, () =>
        t.api("POST", "/sandbox/v1/simulate/rename", { body: rename }),
      );
    }
  });

  it("a reaction: the six named ones or one emoji, anything else refused", async () => {
    const reaction =
      doc.paths["/v1/messages/{id}/react"].post.requestBody.content["application/json"].schema.properties.reaction;
    expect(reaction.anyOf[0].enum).toEqual(["love", "like", "dislike", "laugh", "emphasize", "question"]);
    const { id } = await send(t, { to: IPHONE, from_handle: MAIN });
    await t.advance(1_000);
    for (const [value, accepted] of [
      ["love", true],
      ["question", true],
      ["👍", true],
      ["🇫🇷", true],
      ["lol", false],
      ["Love", false],
    ] as const) {
      await expectBothTo(accepted, "/v1/messages/{id}/react", "post", { reaction: value }, () =>
        t.api("POST", `/v1/messages/${id}/react`, { body: { reaction: value } }),
      );
    }
    const payload = doc.components.schemas.MessageReaction.properties.reaction;
    expect(payload.anyOf[0].enum).toEqual(reaction.anyOf[0].enum);
  });

  it("webhook events: the nine event names, an unknown one refused", async () => {
    const events = doc.paths["/v1/webhooks"].post.requestBody.content["application/json"].schema.properties.events;
    expect([...events.items.enum].sort()).toEqual(Object.keys(doc.webhooks).sort());
    for (const [names, accepted] of [
      [["message.sent", "conversation.renamed"], true],
      [["message.sent", "message.exploded"], false],
    ] as const) {
      const body = { url: "http://127.0.0.1:9/hook", events: names };
      await expectBothTo(accepted, "/v1/webhooks", "post", body, () => t.api("POST", "/v1/webhooks", { body }));
    }
  });

  it("id filters and references are UUIDs: a malformed one is refused with 400", async () => {
    const filter = doc.paths["/v1/messages"].get.parameters.find((p: any) => p.name === "conversation_id");
    expect(filter.schema).toMatchObject({ type: "string", format: "uuid" });
    const res = await t.api("GET", "/v1/messages?conversation_id=not-a-uuid");
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("conversation_id: must be a UUID");
    const typing = { from: IPHONE, conversation_id: "not-a-uuid" };
    await expectBothTo(false, "/sandbox/v1/simulate/typing", "post", typing, () =>
      t.api("POST", "/sandbox/v1/simulate/typing", { body: typing }),
    );
  });
});
