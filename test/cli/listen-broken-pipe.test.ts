import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { spawnCli } from "../helpers/cli-process.js";
import { emitTestEvent } from "../helpers/events.js";
import { KEY, useSandbox } from "../helpers/sandbox.js";
import { useReceiver } from "../helpers/webhook-receiver.js";

// The sandbox runs in this process on a real socket, so the test emits events directly; listen is
// the real CLI with its stdout a pipe that this test stops reading, as `| head -1` does.
describe("msgctl webhooks listen whose reader goes away (`| head -1`)", () => {
  const t = useSandbox({ socket: true });
  const receiver = useReceiver();
  let flags: string[];

  beforeAll(() => {
    flags = ["--base-url", t.sandbox.baseUrl, "--api-key", KEY];
  });
  beforeEach(async () => {
    await t.sandbox.control.reset();
  });

  it.each([
    ["for people", [], "Ctrl-C to stop"],
    ["with --json", ["--json"], '"event":"ready"'],
  ])("deletes its endpoint, as on Ctrl-C, and exits 0 (%s)", async (_mode, extra, lastReadyLine) => {
    const listen = spawnCli(["webhooks", "listen", "--forward-to", receiver.url, ...extra, ...flags]);
    // Once everything it prints on start is read, listen writes nothing until a delivery.
    await listen.line((line) => line.includes(lastReadyLine), "end of the ready output");
    listen.child.stdout.destroy(); // the reader is gone: listen's next write meets EPIPE
    const [endpoint] = (await t.api("GET", "/v1/webhooks")).body.data;
    expect(endpoint).toMatchObject({ url: receiver.url });

    // A delivery makes listen print, and so find the pipe closed.
    emitTestEvent(t.sandbox.ctx);
    expect(await listen.exited, listen.stderr()).toBe(0);
    expect(listen.stderr()).toBe("");
    expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
  });
});
