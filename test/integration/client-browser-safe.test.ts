import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "../../src/client/client.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";

/**
 * What the inspector needs of the one typed client: reads the page draws, uploads a browser can
 * send (FormData; a streamed body only when progress is asked for), and a fetch called the way a
 * browser's must be.
 */
describe("the typed client as the inspector uses it", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("calls fetch as a plain function: a browser's window.fetch refuses any other `this`", async () => {
    const thisSeen: unknown[] = [];
    const client = createClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.accounts[0]?.api_key ?? undefined,
      fetch: function (this: unknown, input: string | URL | Request, init?: RequestInit) {
        thisSeen.push(this);
        return fetch(input, init);
      } as typeof fetch,
    });
    expect((await client.sandbox.clock()).mode).toBe("manual");
    expect(thisSeen).toEqual([undefined]);
  });

  it("uploads as FormData without progress and as a stream with it: the same attachments either way", async () => {
    const files = [
      { filename: "one.txt", data: new TextEncoder().encode("hello there") },
      { filename: "two.bin", data: new Blob([new Uint8Array(2_000).fill(7)]) },
    ];
    const plain = await sandbox.client.attachments.upload(files);
    const reports: [number, number][] = [];
    const streamed = await sandbox.client.attachments.upload(files, {
      onProgress: (sent, total) => reports.push([sent, total]),
    });
    const shape = (list: typeof plain) => list.map((a) => [a.filename, a.size_bytes]);
    expect(shape(plain)).toEqual([
      ["one.txt", 11],
      ["two.bin", 2_000],
    ]);
    expect(shape(streamed)).toEqual(shape(plain));
    expect(reports.at(-1)).toEqual([2_011, 2_011]);
  });

  it("reads one event, a thread's reactions and the OTP challenges with their codes", async () => {
    const { client } = sandbox;
    const { message } = await client.messages.send({ from_handle: "+14155550101", to: "+14155550191", text: "hi" });
    await sandbox.clock.advance("10s");
    await client.simulate.reaction({ message_id: message.id, from: "+14155550191", reaction: "love" });
    const reacted = await sandbox.waitForEvent("message.reaction", { match: { message_id: message.id } });
    expect(await client.sandbox.event(reacted.id)).toEqual(reacted);
    expect(await client.simulate.reactions(message.conversation_id)).toEqual([
      { message_id: message.id, from: "+14155550191", side: "contact", reaction: "love", at: expect.any(String) },
    ]);

    const challenge = await sandbox.otp.create("+14155550124");
    expect(await sandbox.otp.challenges({ limit: 1 })).toEqual([
      expect.objectContaining({ id: challenge.id, code: challenge.code, status: "pending", wrong_texts: 0 }),
    ]);
  });
});
