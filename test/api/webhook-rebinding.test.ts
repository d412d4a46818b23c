import { createServer as createTlsServer } from "node:tls";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { listDeliveries } from "../../src/domain/webhooks/index.js";
import { pinnedLookup } from "../../src/domain/webhooks/index.js";
import { createWebhook } from "../../src/domain/webhooks/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

/**
 * A resolver whose answer changes under the sandbox's feet: the first `honest` lookups of a name
 * answer the receiver's loopback address (allowed without --strict-urls), later ones a forbidden
 * address. Only this resolver knows `rebind.test`: a connection that resolved the name again on
 * its own would fail with ENOTFOUND.
 */
const lookups: string[] = [];
let honest = Infinity;
const resolveHost = async (host: string) => {
  lookups.push(host);
  return lookups.length <= honest ? ["127.0.0.1"] : ["169.254.169.254"];
};

describe("deliveries connect to the address that was checked (spec 4.4, DNS rebinding)", () => {
  const receiver = useReceiver();
  const t = useSandbox({ resolveHost });
  const accountId = () => allAccounts(t.sandbox.ctx)[0]!.id;
  const port = () => new URL(receiver.url).port;

  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    lookups.length = 0;
    honest = Infinity;
  });

  it("an attempt resolves the name once, then connects to that answer with the endpoint's Host header", async () => {
    await createWebhook(t.sandbox.ctx, accountId(), { url: `http://rebind.test:${port()}/hook` });
    const lookupsAtCreation = lookups.length;
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const [delivery] = listDeliveries(t.sandbox.ctx, accountId(), {}).data;
    expect(delivery, JSON.stringify(delivery?.attempts)).toMatchObject({ status: "succeeded" });
    expect(lookups.length - lookupsAtCreation).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]?.headers.host).toBe(`rebind.test:${port()}`);
  });

  it("once the name answers a forbidden address, the next attempt is dropped and nothing is sent", async () => {
    await createWebhook(t.sandbox.ctx, accountId(), { url: `http://rebind.test:${port()}/hook` });
    honest = lookups.length; // from now on: the metadata address
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    const [delivery] = listDeliveries(t.sandbox.ctx, accountId(), {}).data;
    expect(delivery).toMatchObject({ status: "dropped" });
    expect(delivery?.attempts[0]?.error).toMatch(/169\.254\.169\.254 is the cloud metadata address/);
    expect(receiver.requests).toEqual([]);
  });

  it("a `*.localhost` name connects to loopback without asking any resolver (RFC 6761)", async () => {
    await createWebhook(t.sandbox.ctx, accountId(), { url: `http://hooks.localhost:${port()}/hook` });
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    expect(listDeliveries(t.sandbox.ctx, accountId(), {}).data[0]).toMatchObject({ status: "succeeded" });
    expect(receiver.requests[0]?.headers.host).toBe(`hooks.localhost:${port()}`);
    expect(lookups).toEqual([]);
  });

  it("an https endpoint keeps its name for TLS (SNI) while connecting to the checked address", async () => {
    const seen: string[] = [];
    // No certificate: the handshake fails after the ClientHello, which is all this test reads.
    const tls = createTlsServer({ SNICallback: (name, done) => (seen.push(name), done(new Error("no certificate"))) });
    tls.on("tlsClientError", () => {});
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    try {
      const tlsPort = (tls.address() as AddressInfo).port;
      await createWebhook(t.sandbox.ctx, accountId(), { url: `https://rebind.test:${tlsPort}/hook` });
      emitTestEvent(t.sandbox.ctx);
      await t.advance(0);
      expect(seen).toEqual(["rebind.test"]);
      expect(listDeliveries(t.sandbox.ctx, accountId(), {}).data[0]?.attempts[0]?.error).toMatch(
        /connection failed|request failed/,
      );
    } finally {
      tls.close();
    }
  });
});

describe("the pinned lookup", () => {
  it("the pinned lookup answers only the checked addresses, by family when asked", () => {
    const lookup = pinnedLookup(["93.184.216.34", "2606:2800:220:1::1"]);
    const answers: unknown[] = [];
    const call = (options: object) =>
      (lookup as any)("hooks.example.com", options, (...args: unknown[]) => answers.push(args));
    call({ all: true });
    call({ family: 6 });
    call({ family: 4, all: true });
    expect(answers).toEqual([
      [
        null,
        [
          { address: "93.184.216.34", family: 4 },
          { address: "2606:2800:220:1::1", family: 6 },
        ],
      ],
      [null, "2606:2800:220:1::1", 6],
      [null, [{ address: "93.184.216.34", family: 4 }]],
    ]);
    const none: unknown[] = [];
    (pinnedLookup(["93.184.216.34"]) as any)("hooks.example.com", { family: 6 }, (error: Error) =>
      none.push((error as NodeJS.ErrnoException).code),
    );
    expect(none).toEqual(["ENOTFOUND"]);
  });
});
