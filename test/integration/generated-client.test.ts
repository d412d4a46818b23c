import { execFile } from "node:child_process";
import { mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/index.js";

/**
 * A client generated from the messaging document the sandbox serves, the way a user would make
 * one (openapi-typescript for the types, openapi-fetch for the calls): it compiles under strict
 * tsc, its types refuse wrong calls and type webhook payloads, and it works against a live sandbox.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** The user's code: written against the generated types only. */
const CLIENT = `
import createClient from "openapi-fetch";
import type { paths, webhooks } from "./messaging.js";

type SentPayload = webhooks["message.sent"]["post"]["requestBody"]["content"]["application/json"];
type ReactionPayload = webhooks["message.reaction"]["post"]["requestBody"]["content"]["application/json"];

const client = createClient<paths>({
  baseUrl: process.env.BASE_URL,
  headers: { Authorization: \`Bearer \${process.env.API_KEY}\` },
});

/** A webhook handler typed by the document's webhooks. */
export function onSent(payload: SentPayload): string {
  const id: string = payload.message_id;
  return \`\${payload.type} \${id} \${payload.status}\`;
}

/** Never called: calls the generated types must refuse. */
export function refused(payload: ReactionPayload): void {
  // @ts-expect-error: a reaction is a string
  void client.POST("/v1/messages/{id}/react", { params: { path: { id: "x" } }, body: { reaction: 5 } });
  // @ts-expect-error: no such path
  void client.GET("/v1/nope");
  // @ts-expect-error: a webhook body has no such field
  void payload.emoji;
  // @ts-expect-error: a message.reaction payload is not a typing one
  const wrong: ReactionPayload["type"] = "conversation.typing";
  void wrong;
}

const numbers = await client.GET("/v1/numbers");
if (!numbers.data) throw new Error(JSON.stringify(numbers.error));
const from = numbers.data.data.find((n) => n.channels.includes("imessage"))?.handle ?? "";
const sent = await client.POST("/v1/messages", {
  body: { from_handle: from, to: "+14155550191", text: "hi from a generated client" },
});
if (!sent.data) throw new Error(JSON.stringify(sent.error));
const advanced = await client.POST("/sandbox/v1/clock/advance", { body: { duration: "1s" } });
if (!advanced.data) throw new Error(JSON.stringify(advanced.error));
const got = await client.GET("/v1/messages/{id}", { params: { path: { id: sent.data.data.id } } });
const tooLong = await client.POST("/v1/chats", {
  body: { from_handle: from, addresses: ["+14155550150", "+14155550151"], message: "hi", title: "x".repeat(101) },
});
console.log(JSON.stringify({ status: got.data?.data.status, accepted: sent.response.status, refused: tooLong.error }));
`;

describe("a client generated from the messaging document (openapi-typescript + openapi-fetch)", () => {
  let sb: StartedSandbox;
  let dir: string;
  beforeAll(async () => {
    sb = await startSandbox();
    const document = await (await fetch(`${sb.baseUrl}/openapi.json`)).json();
    dir = mkdtempSync(join(tmpdir(), "msgctl-generated-client-"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    writeFileSync(join(dir, "messaging.ts"), astToString(await openapiTS(document)));
    writeFileSync(join(dir, "client.ts"), CLIENT);
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const compilerOptions = {
      strict: true,
      module: "nodenext",
      moduleResolution: "nodenext",
      target: "es2022",
      noEmit: true,
      skipLibCheck: false,
      types: ["node"],
    };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["client.ts"] }));
  });
  afterAll(() => sb?.stop());

  it("compiles under strict tsc: the types describe the paths and the webhooks, and refuse wrong calls", async () => {
    const result = await run(join(ROOT, "node_modules/.bin/tsc"), ["-p", dir]).catch(
      (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? String(error), code: error.code }),
    );
    expect(result.stdout).toBe("");
  }, 120_000);

  it("works against a live sandbox: sends, advances the manual clock, reads the message, meets a 400", async () => {
    const { stdout } = await run(join(ROOT, "node_modules/.bin/tsx"), ["client.ts"], {
      cwd: dir,
      env: { PATH: process.env.PATH, BASE_URL: sb.baseUrl, API_KEY: sb.apiKey },
    });
    expect(JSON.parse(stdout)).toEqual({
      status: "delivered",
      accepted: 202,
      refused: {
        error: "invalid_request",
        message: "title: must be at most 100 characters",
        request_id: expect.stringMatching(/^req_/),
      },
    });
  });
});
