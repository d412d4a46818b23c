import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { allAccounts } from "../../src/domain/accounts/index.js";
import { createWebhook, listDeliveries } from "../../src/domain/webhooks/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox } from "../helpers/sandbox.js";

/** A receiver on one loopback address that counts the connections it accepted. */
interface CountingReceiver {
  port: number;
  requests: { eventId: string; socket: Socket }[];
  connections: number;
  close(): Promise<void>;
}

async function countingReceiver(
  host: string,
  port = 0,
  answer: (eventId: string) => number = () => 204,
): Promise<CountingReceiver> {
  const receiver = { requests: [], connections: 0 } as unknown as CountingReceiver;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const eventId = String(req.headers["x-msgctl-event-id"]);
      receiver.requests.push({ eventId, socket: req.socket });
      res.writeHead(answer(eventId)).end();
    });
  });
  server.on("connection", () => receiver.connections++);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return Object.assign(receiver, {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

describe("deliveries keep their connection to an endpoint alive", () => {
  const t = useSandbox();
  let receiver: CountingReceiver;
  beforeAll(async () => {
    receiver = await countingReceiver("127.0.0.1");
  });
  afterAll(() => receiver.close());

  it("first attempts to one endpoint share kept-alive connections, in emission order", async () => {
    const accountId = allAccounts(t.sandbox.ctx)[0]!.id;
    await createWebhook(t.sandbox.ctx, accountId, { url: `http://127.0.0.1:${receiver.port}/hook` });
    const events = Array.from({ length: 120 }, (_, n) => emitTestEvent(t.sandbox.ctx, "message.sent", { n }));
    await t.advance(0);
    expect(receiver.requests.map((r) => r.eventId)).toEqual(events.map((e) => e.id));
    // undici checks an idle socket for one turn before it reuses it, so back-to-back attempts
    // take turns on two kept-alive connections: never one per attempt.
    expect(receiver.connections).toBeLessThanOrEqual(2);
    // Every attempt is recorded, more than one batch of records included.
    const deliveries = listDeliveries(t.sandbox.ctx, accountId, { limit: "100" }).data;
    expect(
      deliveries.every(
        (d) => d.status === "succeeded" && d.attempts.length === 1 && d.attempts[0]?.status_code === 204,
      ),
    ).toBe(true);
  });
});

// Only this resolver knows `pinned.test`; what it answers changes between attempts.
let answer: string[] = ["127.0.0.1"];
const resolveHost = async () => answer;

describe("a kept-alive connection never outlives the address check (spec 4.4, DNS rebinding)", () => {
  const t = useSandbox({ resolveHost });
  let first: CountingReceiver;
  let second: CountingReceiver;
  beforeAll(async () => {
    first = await countingReceiver("127.0.0.1");
    // The same port on another loopback address: only a new connection can reach it.
    second = await countingReceiver("127.0.0.2", first.port);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });
  beforeEach(() => {
    answer = ["127.0.0.1"];
  });

  it("a name that comes to resolve to another allowed address is reached on a new connection there", async () => {
    const accountId = allAccounts(t.sandbox.ctx)[0]!.id;
    await createWebhook(t.sandbox.ctx, accountId, { url: `http://pinned.test:${first.port}/hook` });
    emitTestEvent(t.sandbox.ctx);
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    expect(first.requests).toHaveLength(2);
    const kept = first.connections;

    answer = ["127.0.0.2"];
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    expect(first.requests).toHaveLength(2);
    expect(first.connections).toBe(kept);
    expect(second.requests).toHaveLength(1);

    // Now a forbidden address: dropped, although a connection to a checked address is still open.
    answer = ["169.254.169.254"];
    emitTestEvent(t.sandbox.ctx);
    await t.advance(0);
    expect(first.requests).toHaveLength(2);
    expect(second.requests).toHaveLength(1);
    const [latest] = listDeliveries(t.sandbox.ctx, accountId, {}).data;
    expect(latest).toMatchObject({ status: "dropped" });
    expect(latest?.attempts[0]?.error).toMatch(/169\.254\.169\.254 is the cloud metadata address/);
  });
});

describe("nothing is delivered before the transaction that emitted it committed (the outbox)", () => {
  const path = join(mkdtempSync(join(tmpdir(), "msgctl-outbox-")), "sandbox.db");
  let reader: BetterSqlite3.Database | undefined;
  const seenCommitted: boolean[] = [];
  // A network that answers at once, in the same turn: only the engine's own wait keeps the order.
  const fetchStub: typeof fetch = async (_input, init) => {
    reader ??= new BetterSqlite3(path, { readonly: true });
    const eventId = new Headers(init?.headers).get("x-msgctl-event-id");
    // Another connection sees only committed rows: the event must be there when its delivery goes out.
    seenCommitted.push(reader.prepare("SELECT count(*) FROM events WHERE id = ?").pluck().get(eventId) === 1);
    return new Response(null, { status: 204 });
  };
  const t = useSandbox({ db: path, fetch: fetchStub });
  afterAll(() => reader?.close());

  it("every delivery goes out after its event is committed, through an advance that sends and delivers at one instant", async () => {
    await t.api("POST", "/v1/webhooks", { body: { url: "http://127.0.0.1:9/hook" } });
    for (let i = 0; i < 30; i++) {
      const res = await t.api("POST", "/v1/messages", {
        body: { to: `+1415555${2000 + i}`, from_handle: "+14155550101", text: `m${i}` },
      });
      expect(res.status).toBe(202);
    }
    await t.advance(3_000);
    expect(seenCommitted).toHaveLength(90);
    expect(seenCommitted.every(Boolean)).toBe(true);
  });
});
