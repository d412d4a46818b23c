import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { runCli } from "../helpers/cli.js";

/**
 * `webhooks deliveries` pages like `messages list`: a hint when there is more, and --all; under
 * --json the hint goes to stderr, so a script knows it did not see everything.
 */
describe("msgctl webhooks deliveries: paging (README.md)", () => {
  let sandbox: StartedSandbox;
  let flags: string[];
  const cli = (...args: string[]) => runCli([...args, ...flags]);
  beforeAll(async () => {
    sandbox = await startSandbox();
    flags = ["--base-url", sandbox.baseUrl, "--api-key", sandbox.apiKey, "--state-dir", "/nonexistent"];
    await sandbox.client.webhooks.create({ url: "http://127.0.0.1:9/hook", events: ["message.received"] });
    for (const text of ["one", "two", "three"])
      await sandbox.simulate.inbound({ from: "+14155550191", to: "+14155550101", text });
  });
  afterAll(() => sandbox?.stop());

  it("says how to see the rest when a page is full, and the hint's --before shows it", async () => {
    const first = await cli("webhooks", "deliveries", "--limit", "2");
    expect(first.code, first.stderr).toBe(0);
    const hint = first.stdout.match(/^More: --before (\S+) \(or --all\)$/m);
    expect(hint, first.stdout).not.toBeNull();
    expect(first.stdout.match(/message\.received/g)).toHaveLength(2);

    const rest = await cli("webhooks", "deliveries", "--limit", "2", "--before", hint?.[1] ?? "");
    expect(rest.stdout.match(/message\.received/g)).toHaveLength(1);
    expect(rest.stdout).not.toContain("More:");
  });

  it("--all follows every page; --json prints the deliveries only", async () => {
    const all = await cli("webhooks", "deliveries", "--all", "--json");
    expect(all.code, all.stderr).toBe(0);
    const deliveries = JSON.parse(all.stdout);
    expect(deliveries).toHaveLength(3);
    expect(new Set(deliveries.map((d: { id: string }) => d.id)).size).toBe(3);
    expect(JSON.parse((await cli("webhooks", "deliveries", "--limit", "2", "--json")).stdout)).toHaveLength(2);
  });

  it("--json with more to see: stdout is the page alone, a note on stderr says how to see the rest", async () => {
    const page = await cli("webhooks", "deliveries", "--limit", "2", "--json");
    expect(page.code, page.stderr).toBe(0);
    const deliveries = JSON.parse(page.stdout);
    expect(deliveries).toHaveLength(2);
    expect(page.stderr.trim()).toBe(`More: --before ${deliveries[1].created_at} (or --all)`);

    for (const seenAll of [["--all"], ["--limit", "3"]]) {
      const whole = await cli("webhooks", "deliveries", ...seenAll, "--json");
      expect(JSON.parse(whole.stdout)).toHaveLength(3);
      expect(whole.stderr).toBe("");
    }
  });

  it("messages list and chats list --json say the same on stderr when more exist", async () => {
    const messages = await cli("messages", "list", "--limit", "1", "--json");
    const [message] = JSON.parse(messages.stdout);
    expect(messages.stderr.trim()).toBe(`More: --before ${message.created_at} (or --all)`);
    expect((await cli("messages", "list", "--all", "--json")).stderr).toBe("");

    await sandbox.simulate.inbound({ from: "+14155550150", to: "+14155550101", text: "another thread" });
    const chats = await cli("chats", "list", "--limit", "1", "--json");
    const [chat] = JSON.parse(chats.stdout);
    expect(chats.stderr.trim()).toBe(`More: --before ${chat.last_message_at}`);
  });

  it("--help says that --json prints one page and notes on stderr when there is more", async () => {
    const help = await cli("webhooks", "deliveries", "--help");
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "without it --json prints one page, and a note on stderr says when more exist",
    );
  });
});
