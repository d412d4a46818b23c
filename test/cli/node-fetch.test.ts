import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { nodeFetch } from "../../src/cli/node-fetch.js";
import { createClient } from "../../src/client/client.js";
import { startSandbox, type StartedSandbox } from "../../src/runtime/start-sandbox.js";
import { runCli } from "../helpers/cli.js";

/** The CLI's fetch over node:http: what the client reads of a response, aborts and cut-off bodies. */
describe("nodeFetch", () => {
  let server: Server;
  let base: string;
  const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ method: req.method, headers: req.headers, body });
        if (req.url === "/json") {
          res.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "req_1" });
          res.end(JSON.stringify({ data: { ok: true } }));
        } else if (req.url === "/cut") {
          // Promises 100 bytes, sends 5, then the server goes away.
          res.writeHead(200, { "content-length": "100" });
          res.write("hello");
          setImmediate(() => res.destroy());
        } else if (req.url === "/stream") {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("data: 1\n\n");
        }
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  });

  it("sends the method, headers and body, and reads status, status text, headers and JSON", async () => {
    const response = await nodeFetch(`${base}/json`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: '{"a":1}',
    });
    expect([response.status, response.statusText, response.ok]).toEqual([201, "Made", true]);
    expect(response.headers.get("X-Request-Id")).toBe("req_1");
    expect(response.headers.get("x-absent")).toBeNull();
    expect(await response.json()).toEqual({ data: { ok: true } });
    expect(seen.at(-1)).toMatchObject({ method: "POST", body: '{"a":1}', headers: { authorization: "Bearer k" } });
  });

  it("a body cut off midway rejects (the client then says the sandbox went away while answering)", async () => {
    const response = await nodeFetch(`${base}/cut`);
    await expect(response.text()).rejects.toThrow();
    const client = createClient({ baseUrl: base, apiKey: "k", fetch: nodeFetch });
    await expect(client.http.request("messaging", "GET", "/cut")).rejects.toThrow(
      `Cannot reach the sandbox at ${base}: the sandbox went away while answering`,
    );
  });

  it("an abort rejects with an AbortError before the answer, and ends a stream being read", async () => {
    const before = new AbortController();
    before.abort();
    await expect(nodeFetch(`${base}/json`, { signal: before.signal })).rejects.toMatchObject({ name: "AbortError" });

    const during = new AbortController();
    const response = await nodeFetch(`${base}/stream`, { signal: during.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: 1\n\n");
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });
  });

  it("a refused connection rejects, which the client reports as a ConnectionError", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k", fetch: nodeFetch });
    await expect(client.numbers.list()).rejects.toThrow("Cannot reach the sandbox at http://127.0.0.1:9");
  });

  it("hands anything else (form data, a Headers object) to the global fetch", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      const form = new FormData();
      form.set("a", "b");
      expect((await nodeFetch(`${base}/json`, { method: "POST", body: form })).status).toBe(201);
      expect((await nodeFetch(`${base}/json`, { headers: new Headers({ a: "b" }) })).status).toBe(201);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("a client command against a running sandbox", () => {
  let sandbox: StartedSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.stop());

  it("never loads Node's fetch implementation (undici): it costs more than the command's own code", async () => {
    const preload = resolve(import.meta.dirname, "../helpers/report-undici.mjs");
    const env = { NODE_OPTIONS: `--import ${preload}` };
    const flags = ["--base-url", sandbox.baseUrl, "--api-key", sandbox.apiKey, "--json"];
    for (const command of [
      ["clock"],
      ["numbers"],
      ["send", "--to", "+14155550191", "--from", "+14155550101", "--text", "hi"],
    ]) {
      const result = await runCli([...command, ...flags], { env });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stderr).not.toContain("undici was loaded");
    }
    // The probe does see undici when something loads it.
    const probed = spawnSync(process.execPath, ["--import", preload, "-e", "new FormData()"], { encoding: "utf8" });
    expect(probed.stderr).toContain("undici was loaded");
  });
});
