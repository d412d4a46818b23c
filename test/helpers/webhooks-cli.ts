import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, beforeEach } from "vitest";
import { runCli } from "./cli.js";
import { KEY, useSandbox } from "./sandbox.js";
import { useReceiver } from "./webhook-receiver.js";

/**
 * The sandbox in this process on a real socket, so that tests can emit events directly, and the
 * real CLI run against it from a temporary folder (`cli`, with the connection `flags`); state and
 * the receiver are reset before each test. Call inside a describe.
 */
export function useWebhooksCli() {
  const t = useSandbox({ socket: true });
  const receiver = useReceiver();
  const flags: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "msgctl-webhooks-"));
  const cli = (...args: string[]) => runCli([...args, ...flags], { cwd: dir });

  beforeAll(() => {
    flags.push("--base-url", t.sandbox.baseUrl, "--api-key", KEY);
  });
  beforeEach(async () => {
    await t.sandbox.control.reset();
    receiver.requests.length = 0;
    receiver.reply(() => ({ status: 204 }));
  });
  return { t, receiver, flags, dir, cli };
}
