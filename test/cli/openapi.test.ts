import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { runCli } from "../helpers/cli.js";

/** A port on 127.0.0.1 where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** `msgctl openapi` prints the document of the host it is pointed at (README.md). */
describe("msgctl openapi [--host messaging|otp]", () => {
  let sandbox: StartedSandbox;
  let empty: string;
  beforeAll(async () => {
    sandbox = await startSandbox();
    empty = mkdtempSync(join(tmpdir(), "msgctl-openapi-"));
  });
  afterAll(() => sandbox?.stop());

  const documentOf = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runCli(["openapi", ...args], { cwd: empty, env });
    expect(result.code, result.stderr).toBe(0);
    return { document: JSON.parse(result.stdout), stderr: result.stderr };
  };

  it("fetches the document of the sandbox named by --base-url or --otp-url, with that host as its server", async () => {
    const messaging = await documentOf(["--base-url", sandbox.baseUrl]);
    expect(messaging.document.servers).toEqual([{ url: sandbox.baseUrl }]);
    expect(messaging.stderr).toBe("");
    expect((await documentOf(["--host", "otp"], { MSGCTL_OTP_URL: sandbox.otpUrl })).document.servers).toEqual([
      { url: sandbox.otpUrl },
    ]);
  });

  it("without a sandbox prints the generated document; with one that cannot be reached, says so on stderr", async () => {
    expect((await documentOf([])).document.servers).toEqual([{ url: "http://127.0.0.1:4010" }]);
    const port = await closedPort();
    const unreachable = await documentOf(["--host", "otp", "--otp-url", `http://127.0.0.1:${port}`]);
    expect(unreachable.document.servers).toEqual([{ url: "http://127.0.0.1:4011" }]);
    expect(unreachable.stderr).toContain(
      `Printing the generated document instead of the one at http://127.0.0.1:${port}: it could not be reached.`,
    );
  });
});
