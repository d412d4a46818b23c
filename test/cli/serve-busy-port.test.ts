import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

describe("msgctl serve on a busy port: exit 1 (port_in_use) naming the port, no database left behind (docs/sandbox.md)", () => {
  let busy: Server;
  let port: number;

  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((done) => busy.listen({ host: "127.0.0.1", port: 0 }, () => done()));
    port = (busy.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((done) => busy.close(done));
  });

  /** Runs serve in a fresh directory; its default data dir would be `<dir>/.msgctl`. */
  async function serveIn(...ports: string[]) {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-busy-"));
    const result = await runCli(["serve", ...ports, "--no-state-file"], { cwd: dir });
    return { ...result, dir };
  }

  it.each([
    ["messaging", (busyPort: number) => ["--port", String(busyPort), "--otp-port", "0"]],
    ["OTP", (busyPort: number) => ["--port", "0", "--otp-port", String(busyPort)]],
  ])("the %s port taken: the default data dir is never made", async (_host, flags) => {
    const result = await serveIn(...flags(port));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`Cannot listen on 127.0.0.1:${port}`);
    expect(existsSync(join(result.dir, ".msgctl"))).toBe(false);
  });

  it("an existing data dir gets no new database files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-busy-"));
    const data = join(dir, "data");
    const result = await runCli(
      [
        "serve",
        "--port",
        "0",
        "--otp-port",
        String(port),
        "--db",
        join(data, "sandbox.db"),
        "--no-state-file",
        "--json",
      ],
      { cwd: dir },
    );
    expect(result.code, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: "port_in_use",
      message: expect.stringContaining(`Cannot listen on 127.0.0.1:${port}`),
    });
    expect(existsSync(data) ? readdirSync(data) : []).toEqual([]);
  });

  it("one port given to both hosts clashes with itself before anything is written", async () => {
    // A free port: the first host could take it, the second could not.
    const probe = createServer();
    await new Promise<void>((done) => probe.listen({ host: "127.0.0.1", port: 0 }, () => done()));
    const free = String((probe.address() as AddressInfo).port);
    await new Promise((done) => probe.close(done));
    const result = await serveIn("--port", free, "--otp-port", free);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`Cannot listen on 127.0.0.1:${free}`);
    expect(existsSync(join(result.dir, ".msgctl"))).toBe(false);
  });
});
