import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { guardedClient } from "../helpers/guarded-http.js";
import { KEY } from "../helpers/sandbox.js";

/**
 * The inspector page embeds a key only for a browser on this machine (a loopback peer); a browser
 * elsewhere on the network, where `--host` exposed the sandbox, gets the page without one and is
 * asked for it.
 */

const CONFIG = /<script id="msgctl-config" type="application\/json">([^<]*)<\/script>/;
const configOf = (html: string) => JSON.parse(CONFIG.exec(html)?.[1] ?? "null") as { key: string | null } | null;
const portOf = (url: string) => Number(new URL(url).port);

/** An IPv4 address of this machine that is not loopback, to be a peer from another address. */
const OTHER_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;

describe("the inspector's key, by peer address, in process (h3's clientAddress names the peer)", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await launchSandbox({ clock: "manual", listen: false });
  });
  afterAll(() => sandbox?.stop());

  const pageFor = async (clientAddress?: string) => {
    const answer = await sandbox.messagingApp.request("/", undefined, clientAddress ? { clientAddress } : undefined);
    expect(answer.status).toBe(200);
    return configOf(await answer.text());
  };

  it.each(["127.0.0.1", "127.8.8.8", "::1", "::ffff:127.0.0.1"])("a loopback peer (%s) gets the key", async (peer) => {
    expect(await pageFor(peer)).toEqual({ key: KEY });
  });

  it.each(["192.0.2.7", "::ffff:192.0.2.7", "fd00::2", "10.0.0.1"])("a peer at %s gets none", async (peer) => {
    expect(await pageFor(peer)).toEqual({ key: null });
  });

  it("a call from this very process (app.request, no peer) counts as loopback", async () => {
    expect(await pageFor()).toEqual({ key: KEY });
  });
});

describe("the inspector's key over a real socket", () => {
  const client = guardedClient();

  it("a browser on 127.0.0.1 gets the page with the first account's key", async () => {
    const sandbox = await launchSandbox({ clock: "manual", port: 0, otpPort: 0 });
    try {
      const port = portOf(sandbox.baseUrl);
      const page = await client.send(port, { path: "/", host: `localhost:${port}` });
      expect(page.status).toBe(200);
      expect(configOf(page.body)).toEqual({ key: KEY });
    } finally {
      await sandbox.stop();
    }
  });

  it.skipIf(!OTHER_ADDRESS)(
    "a browser on another address gets the page without a key, and the API still takes the key it is given",
    async () => {
      const address = OTHER_ADDRESS as string;
      // Listening on that address only: the peer of a connection to it is that address, not loopback.
      const sandbox = await launchSandbox({ clock: "manual", port: 0, otpPort: 0, host: address });
      try {
        const port = portOf(sandbox.baseUrl);
        const host = `${address}:${port}`; // the --host value is an allowed name
        const page = await client.send(port, { path: "/", host, address });
        expect(page.status).toBe(200);
        expect(page.headers["content-type"]).toMatch(/^text\/html/);
        expect(configOf(page.body)).toEqual({ key: null });
        expect(page.body).not.toContain("sk_test_");
        const numbers = await client.send(port, { path: "/v1/numbers", host, address, key: KEY });
        expect(numbers.status).toBe(200);
        // A foreign name is refused from there too.
        const foreign = await client.send(port, { path: "/", host: "evil.example", address });
        expect(foreign.status).toBe(403);
      } finally {
        await sandbox.stop();
      }
    },
  );
});
