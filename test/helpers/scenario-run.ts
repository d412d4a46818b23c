import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * A small app of the user's: takes webhooks at /hooks (answering `status` of /api/answer, 204 by
 * default), remembers the last inbound text, and serves it at GET /api/last-inbound.
 */
export function useApp() {
  const app = { url: "", hooks: 0, answer: 204 };
  let server: Server;
  let lastInbound: unknown = null;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        if (req.method === "POST" && req.url === "/hooks") {
          app.hooks++;
          const event = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          if (event.type === "message.received") lastInbound = { text: event.text, from: event.from };
          res.writeHead(app.answer).end();
        } else if (req.url === "/api/last-inbound") {
          res.writeHead(lastInbound ? 200 : 404, { "content-type": "application/json" });
          res.end(JSON.stringify(lastInbound ?? { error: "nothing yet" }));
        } else res.writeHead(404).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    app.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  return app;
}

/** The temporary folder of this run's scenario files and reports. */
export const runDir = mkdtempSync(join(tmpdir(), "msgctl-run-"));

/** Writes a scenario file `name` into this run's temporary folder, answering its path. */
export const scenarioFile = (name: string, text: string) => {
  const path = join(runDir, name);
  writeFileSync(path, text);
  return path;
};
/** The JUnit XML schema the reports are checked against. */
export const JUNIT_XSD = readFileSync(resolve(import.meta.dirname, "../fixtures/junit.xsd"), "utf8");
