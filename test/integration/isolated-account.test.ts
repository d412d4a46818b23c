import { describe, expect, it } from "vitest";
import { createAccount, startSandbox } from "../../src/index.js";

/** The package's createAccount: a parallel worker's own account in a shared running sandbox. */
describe("createAccount (for parallel workers sharing one sandbox)", () => {
  it("connects with any known key, returns a fresh account with a client bound to it, and deletes it", async () => {
    const sandbox = await startSandbox();
    try {
      const worker = await createAccount(
        { baseUrl: sandbox.baseUrl, otpUrl: sandbox.otpUrl, apiKey: sandbox.apiKey },
        { name: "worker-7" },
      );
      const [number] = await worker.client.numbers.list();
      const { message } = await worker.client.messages.send({
        from_handle: number?.handle,
        to: "+14155550191",
        text: "mine",
      });
      expect((await worker.client.messages.list()).data.map((m) => m.id)).toEqual([message.id]);
      // The fixture's account sees none of it.
      expect((await sandbox.client.messages.list()).data).toEqual([]);
      await worker.delete();
      await expect(worker.client.numbers.list()).rejects.toMatchObject({ status: 401 });
    } finally {
      await sandbox.stop();
    }
  });
});
