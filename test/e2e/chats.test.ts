import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { useServe } from "../helpers/cli.js";

const MAIN = "+14155550101";
const SALES = "+14155550103";
const IPHONE = "+14155550191";
const ALICE = "+14155550150";
const BOB = "+14155550151";
const CAROL = "+14155550152";

describe("msgctl chats create|rename|add|remove|read|typing, end to end (README.md)", () => {
  const { cli, json, reset } = useServe();
  beforeEach(() => reset());

  it("creates a group with --json (the Chat only on stdout), then lists and gets it", async () => {
    const group = await json(
      "chats",
      "create",
      "--from",
      MAIN,
      "--to",
      `${ALICE},${BOB}`,
      "--message",
      "Welcome",
      "--title",
      "Book club",
    );
    expect(group).toMatchObject({ from_handle: MAIN, is_group: true, title: "Book club", participants: [ALICE, BOB] });
    expect(await json("chats", "list")).toEqual([group]);
    expect(await json("chats", "get", group.id)).toEqual(group);
    expect(await json("messages", "list")).toEqual([]);
    const human = await cli("chats", "list");
    expect(human.stdout).toMatch(/ID\s+FROM\s+WITH\s+GROUP\s+TITLE/);
    expect(human.stdout).toContain(`${ALICE}, ${BOB}`);
  });

  it("prints what happened for people, and replays an idempotent create", async () => {
    const first = await cli(
      "chats",
      "create",
      "--from",
      MAIN,
      "--to",
      `${ALICE},${BOB}`,
      "--message",
      "hi",
      "--idempotency-key",
      "k1",
    );
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^Created group [0-9a-f-]{36}\n/);
    expect(first.stdout).toMatch(/participants\s+\+14155550150, \+14155550151/);
    const again = await cli(
      "chats",
      "create",
      "--from",
      MAIN,
      "--to",
      `${CAROL},${BOB}`,
      "--message",
      "hi",
      "--idempotency-key",
      "k1",
    );
    expect(again.stdout).toMatch(/^Already created with this idempotency key: /);
    expect(await json("chats", "list")).toHaveLength(1);
  });

  it("renames, adds and removes members", async () => {
    const group = await json("chats", "create", "--from", MAIN, "--to", `${ALICE},${BOB}`, "--message", "hi");
    expect((await json("chats", "rename", group.id, "--title", "Weekend")).title).toBe("Weekend");
    expect((await json("chats", "add", group.id, CAROL)).participants).toEqual([ALICE, BOB, CAROL]);
    expect((await json("chats", "remove", group.id, BOB)).participants).toEqual([ALICE, CAROL]);
    const refused = await cli("chats", "remove", group.id, ALICE);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/invalid_state: .*at least 3.*\(request id req_/);
  });

  it("marks a thread read and shows the typing bubble until it expires", async () => {
    const received = await json("simulate", "inbound", "--from", IPHONE, "--to", MAIN, "--text", "hi");
    expect((await json("chats", "read", received.conversation_id)).id).toBe(received.conversation_id);
    expect((await json("messages", "get", received.id)).status).toBe("read");
    const typing = await cli("chats", "typing", received.conversation_id);
    expect(typing.stdout).toMatch(/^Typing bubble shown in .* until \d{4}-.*Z \(it hides by itself/);
    const stopped = await cli("chats", "typing", received.conversation_id, "--stop");
    expect(stopped.stdout).toMatch(/^Typing bubble hidden in /);
  });

  it("exits 1 with the API's code on a one-to-one thread (not_a_group) and an SMS thread (invalid_state)", async () => {
    const direct = await json("send", "--to", IPHONE, "--from", MAIN, "--text", "x");
    const rename = await cli("chats", "rename", direct.conversation_id, "--title", "x");
    expect(rename.code).toBe(1);
    expect(rename.stderr).toContain("not_a_group");
    const sms = await json("simulate", "inbound", "--from", "+14155550192", "--to", MAIN, "--text", "x");
    expect((await cli("chats", "typing", sms.conversation_id)).stderr).toContain("invalid_state");
  });

  it.each([
    [["chats", "create", "--from", MAIN, "--message", "x"]],
    [["chats", "create", "--from", MAIN, "--to", ",", "--message", "x"]],
    [["chats", "list", "--limit", "many"]],
    [["chats", "rename", "x"]],
    [["chats", "add", "x"]],
    [["simulate", "inbound", "--from", IPHONE, "--text", "x"]],
    [["simulate", "inbound", "--from", IPHONE, "--to", MAIN, "--text", "x", "--members", ALICE, "--group", "g"]],
    [["simulate", "typing", "--from", IPHONE]],
    [["simulate", "add", "x", ALICE]],
  ])("exits 2 on the usage error %j", async (args) => {
    expect((await cli(...args)).code).toBe(2);
  });
});

describe("msgctl simulate inbound --members|--group, rename, add|remove, typing --group, end to end", () => {
  const { cli, json, reset } = useServe();
  beforeEach(() => reset());

  it("starts a group with --members, each of your numbers in it getting its own copy", async () => {
    const received = await json(
      "simulate",
      "inbound",
      "--from",
      IPHONE,
      "--to",
      MAIN,
      "--members",
      `${ALICE},${SALES}`,
      "--text",
      "hi all",
    );
    expect(received).toMatchObject({ direction: "inbound", text: "hi all", metadata: { sender_handle: IPHONE } });
    const chats = await json("chats", "list");
    expect(chats.map((c: any) => [c.from_handle, c.is_group])).toEqual(
      expect.arrayContaining([
        [MAIN, true],
        [SALES, true],
      ]),
    );
    expect(await json("messages", "list")).toHaveLength(2);
  });

  it("writes into an existing group with --group, and replies with send --conversation", async () => {
    const first = await json(
      "simulate",
      "inbound",
      "--from",
      IPHONE,
      "--to",
      MAIN,
      "--members",
      ALICE,
      "--text",
      "one",
    );
    const second = await json(
      "simulate",
      "inbound",
      "--from",
      ALICE,
      "--group",
      first.conversation_id,
      "--text",
      "two",
    );
    expect(second.conversation_id).toBe(first.conversation_id);
    const reply = await json("send", "--conversation", first.conversation_id, "--text", "three");
    await json("clock", "advance", "1s");
    expect(await json("messages", "get", reply.id)).toMatchObject({
      status: "delivered",
      recipients: [expect.objectContaining({ handle: IPHONE }), expect.objectContaining({ handle: ALICE })],
    });
  });

  it("sends files into a group both ways: simulate inbound --group --attach, and send --conversation --attach", async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-e2e-chats-"));
    writeFileSync(join(dir, "agenda.txt"), "1. snacks\n");
    const first = await json(
      "simulate",
      "inbound",
      "--from",
      IPHONE,
      "--to",
      MAIN,
      "--members",
      `${ALICE},${SALES}`,
      "--text",
      "one",
    );
    const withFile = await json(
      "simulate",
      "inbound",
      "--from",
      ALICE,
      "--group",
      first.conversation_id,
      "--attach",
      join(dir, "agenda.txt"),
    );
    expect(withFile).toMatchObject({
      text: null,
      attachments: [expect.objectContaining({ filename: "agenda.txt", mime_type: "text/plain" })],
    });
    const reply = await json(
      "send",
      "--conversation",
      first.conversation_id,
      "--text",
      "thanks",
      "--attach",
      join(dir, "agenda.txt"),
    );
    await json("clock", "advance", "1s");
    const shown = await cli("messages", "get", reply.id);
    expect(shown.stdout).toMatch(/status\s+delivered/);
    expect(shown.stdout).toMatch(/attachment\s+[0-9a-f-]{36} agenda\.txt \(text\/plain, 10 bytes\)/);
    // SALES, in the same group, received its own copy of both, each with its own attachment.
    const salesChat = (await json("chats", "list")).find((c: any) => c.from_handle === SALES);
    const copies = await json("messages", "list", "--conversation", salesChat.id);
    expect(copies.map((m: any) => [m.text, m.attachments.length])).toEqual([
      ["thanks", 1],
      [null, 1],
      ["one", 0],
    ]);
  });

  it("renames and changes members as a contact, and types in the group", async () => {
    const received = await json(
      "simulate",
      "inbound",
      "--from",
      IPHONE,
      "--to",
      MAIN,
      "--members",
      `${ALICE},${BOB}`,
      "--text",
      "x",
    );
    const id = received.conversation_id;
    expect((await json("simulate", "rename", id, "--title", "Trip", "--from", ALICE)).title).toBe("Trip");
    expect((await json("simulate", "add", id, CAROL, "--from", IPHONE)).participants).toEqual([
      IPHONE,
      ALICE,
      BOB,
      CAROL,
    ]);
    expect((await json("simulate", "remove", id, BOB, "--from", IPHONE)).participants).toEqual([IPHONE, ALICE, CAROL]);
    const typing = await cli("simulate", "typing", "--from", ALICE, "--group", id);
    expect(typing.stdout).toContain(`${ALICE} is typing in ${id}`);
    const human = await cli("simulate", "rename", id, "--title", "Trip 2");
    expect(human.stdout).toMatch(/title\s+Trip 2/);
  });
});
