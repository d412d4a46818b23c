import { beforeEach, describe, expect, it } from "vitest";
import { runCli, useServe } from "../helpers/cli.js";
import { startRequestTap } from "../helpers/request-tap.js";

const KEY = "sk_test_acme_0000000000000000";

describe("msgctl send, messages, wait message, end to end (README.md)", () => {
  const sandbox = useServe();
  const { cli, json } = sandbox;
  beforeEach(() => sandbox.reset());

  it("sends with --json (the queued Message only on stdout), then follows it to read", async () => {
    const sent = await json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "hello");
    expect(sent).toMatchObject({ status: "queued", channel: null, text: "hello" });
    await json("clock", "advance", "3s");
    expect(await json("messages", "get", sent.id)).toMatchObject({ status: "read", channel: "imessage" });
    const waited = await json("wait", "message", sent.id, "--status", "delivered", "--timeout", "2s");
    expect(waited.status).toBe("read");
  });

  it("send --wait delivered returns once the clock has moved it there", async () => {
    const tap = await startRequestTap(sandbox.serve.ready.base_url);
    const sending = runCli([
      "send",
      "--to",
      "+14155550172",
      "--from",
      "+14155550101",
      "--text",
      "hi",
      "--wait",
      "delivered",
      "--timeout",
      "15s",
      "--json",
      "--base-url",
      tap.url,
      "--api-key",
      KEY,
    ]);
    // Once the send was accepted and the wait has seen it queued, move the clock from another process.
    await tap.seen(/^GET \/v1\/messages\/[^/?]+$/);
    await json("clock", "advance", "1s");
    const result = await sending;
    await tap.close();
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: "delivered", channel: "imessage" });
  });

  it("send --wait exits 1 at the timeout saying what was seen", async () => {
    const result = await cli(
      "send",
      "--to",
      "+14155550171",
      "--from",
      "+14155550101",
      "--text",
      "x",
      "--wait",
      "delivered",
      "--timeout",
      "500ms",
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^Queued /);
    expect(result.stderr).toMatch(/still queued after 500ms \(wanted delivered/);
  });

  it("wait message exits 1 at once for a message that failed", async () => {
    const sent = await json("send", "--to", "+14155550192", "--from", "+14155550101", "--text", "x");
    await json("clock", "advance", "1s");
    const result = await cli("wait", "message", sent.id, "--status", "delivered", "--timeout", "10s");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is failed \(.*must message first.*\): it will not be delivered/);
  });

  it("exits 1 with the API's code, message and request id when a send is refused", async () => {
    const result = await cli("send", "--to", "+14155550191", "--from", "+14155550199", "--text", "x");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/invalid_from_handle: from_handle: .+\(request id req_/);
  });

  it.each([
    [["send", "--text", "x"]],
    [["send", "--to", "+14155550191", "--from", "+14155550101", "--conversation", "c", "--text", "x"]],
    [["send", "--to", "+14155550191", "--from", "+14155550101", "--text", "x", "--wait", "soon"]],
    [["send", "--to", "+14155550191", "--from", "+14155550101", "--text", "x", "--channel", "sms"]],
    [["wait", "message", "x", "--status", "gone"]],
    [["wait", "message", "x"]],
    [["messages", "react", "x"]],
    [["simulate", "fault", "+14155550101", "melted"]],
    [["simulate", "fault", "+14155550101", "offline", "--count", "2"]],
  ])("exits 2 on the usage error %j", async (args) => {
    expect((await cli(...args)).code).toBe(2);
  });

  it("replays an idempotent send: same message, nothing new", async () => {
    const first = await json(
      "send",
      "--to",
      "+14155550191",
      "--from",
      "+14155550101",
      "--text",
      "x",
      "--idempotency-key",
      "k1",
    );
    const again = await cli(
      "send",
      "--to",
      "+14155550191",
      "--from",
      "+14155550101",
      "--text",
      "x",
      "--idempotency-key",
      "k1",
    );
    expect(again.stdout).toContain(`Already sent with this idempotency key: ${first.id}`);
    expect(await json("messages", "list")).toHaveLength(1);
  });

  it("lists messages as a table, a page with --limit, and every page with --all", async () => {
    for (let i = 0; i < 3; i++) await json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", `m${i}`);
    const human = await cli("messages", "list");
    expect(human.stdout).toMatch(/ID\s+CREATED\s+DIR\s+STATUS\s+CHANNEL\s+TEXT/);
    expect(human.stdout).toContain("m2");
    expect(await json("messages", "list", "--limit", "2")).toHaveLength(2);
    expect((await json("messages", "list", "--all")).map((m: any) => m.text)).toEqual(["m2", "m1", "m0"]);
  });

  it("reacts, edits and unsends an iMessage, and retries a failed one", async () => {
    const sent = await json("send", "--to", "+14155550172", "--from", "+14155550101", "--text", "x");
    await json("clock", "advance", "1s");
    expect((await json("messages", "react", sent.id, "--reaction", "love")).status).toBe("delivered");
    await json("messages", "edit", sent.id, "--text", "y");
    await json("clock", "advance", "1s");
    expect((await json("messages", "get", sent.id)).text).toBe("y");
    await json("messages", "unsend", sent.id);
    await json("clock", "advance", "1s");
    expect((await json("messages", "get", sent.id)).status).toBe("unsent");
    const refused = await cli("messages", "retry", sent.id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("invalid_state");
  });

  it("lists the threads and shows one (chats list / get)", async () => {
    const sent = await json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "thread me");
    const chats = await json("chats", "list");
    expect(chats).toEqual([
      expect.objectContaining({
        id: sent.conversation_id,
        from_handle: "+14155550101",
        remote_handle: "+14155550191",
        is_group: false,
      }),
    ]);
    expect(await json("chats", "get", sent.conversation_id)).toMatchObject({ id: sent.conversation_id });
    const human = await cli("chats", "list");
    expect(human.stdout).toMatch(/ID\s+FROM\s+WITH/);
    const missing = await cli("chats", "get", "00000000-0000-0000-0000-000000000000");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("not_found");
  });

  it("answers availability", async () => {
    expect(await json("availability", "+14155550192")).toEqual({
      handle: "+14155550192",
      imessage: false,
      channel: "sms",
    });
  });
});

describe("msgctl contacts and simulate, end to end", () => {
  const sandbox = useServe();
  const { cli, json } = sandbox;

  it("sets a contact and lists contacts with the magic numbers", async () => {
    const set = await json(
      "contacts",
      "set",
      "+14155550150",
      "--platform",
      "android",
      "--no-read-receipts",
      "--unreachable",
    );
    expect(set).toMatchObject({
      handle: "+14155550150",
      platform: "android",
      imessage: false,
      read_receipts: false,
      reachable: false,
    });
    const list = await json("contacts", "list");
    expect(list.map((c: any) => c.handle)).toEqual(
      expect.arrayContaining(["+14155550150", "+14155550170", "+14155550191"]),
    );
    expect((await cli("contacts", "set", "+14155550150", "--reachable", "--unreachable")).code).toBe(2);
  });

  it("simulates inbound on WhatsApp, a reaction, typing and an edit", async () => {
    const inbound = await json("simulate", "inbound", "--from", "+14155550191", "--to", "+14155550102", "--text", "hi");
    expect(inbound).toMatchObject({
      direction: "inbound",
      channel: "whatsapp",
      metadata: { sender_jid: "14155550191@s.whatsapp.net" },
    });
    expect((await json("simulate", "edit", inbound.id, "--text", "hello")).text).toBe("hello");
    expect((await json("simulate", "typing", "--from", "+14155550191", "--to", "+14155550102")).id).toBe(
      inbound.conversation_id,
    );
    const sent = await json("send", "--conversation", inbound.conversation_id, "--text", "reply");
    await json("simulate", "delivered", sent.id);
    await json("simulate", "reaction", sent.id, "--from", "+14155550191", "--reaction", "👍");
    const events = await (
      await fetch(`${sandbox.serve.ready.base_url}/sandbox/v1/events`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json();
    expect(events.data.map((e: any) => e.type)).toEqual([
      "message.received",
      "message.edited",
      "conversation.typing",
      "message.sent",
      "message.delivered",
      "message.reaction",
    ]);
  });

  it("forces read and fail, and refuses going backwards with exit 1", async () => {
    const sent = await json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "x");
    expect((await json("simulate", "read", sent.id)).status).toBe("read");
    const back = await cli("simulate", "delivered", sent.id);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain("invalid_state");
    const other = await json("send", "--to", "+14155550191", "--from", "+14155550101", "--text", "y");
    expect(await json("simulate", "fail", other.id, "--error", "carrier said no")).toMatchObject({
      status: "failed",
      error: "carrier said no",
    });
    expect((await json("messages", "retry", other.id)).status).toBe("queued");
  });

  it("switches faults, shows them, and numbers shows the status", async () => {
    expect((await json("simulate", "fault", "+14155550101", "offline")).status).toBe("offline");
    const numbers = await json("numbers");
    expect(numbers.find((n: any) => n.handle === "+14155550101").status).toBe("offline");
    expect((await json("simulate", "fault", "+14155550101", "online")).status).toBe("online");
    expect((await json("simulate", "fault", "+14155550101", "transient", "--count", "3")).transient_remaining).toBe(3);
    expect((await json("simulate", "fault", "+14155550101")).transient_remaining).toBe(3);
    expect((await json("simulate", "fault", "+14155550101", "transient", "--off")).transient_remaining).toBe(0);
    expect((await json("simulate", "fault", "+14155550103", "rate-limited")).status).toBe("rate_limited");
    const human = await cli("simulate", "fault", "+14155550103", "rate-limited", "--off");
    expect(human.stdout).toMatch(/status\s+online/);
    const cloud = await cli("simulate", "fault", "+14155550102", "relink-required");
    expect(cloud.code).toBe(1);
    expect(cloud.stderr).toContain("Cloud API");
  });
});
