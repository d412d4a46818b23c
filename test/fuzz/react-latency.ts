import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { rawRequest } from "../helpers/raw-http.js";
import { KEYS } from "./requests.js";

const BIN = resolve(import.meta.dirname, "../../bin/msgctl");
const LIMIT = 1024 * 1024;

/** A body of exactly 1 MiB whose `reaction` is made of `unit` (the largest the route reads). */
function largestBody(unit: string): string {
  const prefix = '{"reaction":"';
  let reaction = unit.repeat(Math.floor((LIMIT - prefix.length - 2) / Buffer.byteLength(unit)));
  while (Buffer.byteLength(prefix + reaction + '"}') < LIMIT) reaction += "x";
  return `${prefix}${reaction}"}`;
}

/**
 * Times `POST /v1/messages/:id/react` with the largest legal body (1 MiB, one huge `reaction`)
 * against a real `msgctl serve`, over loopback, from the first byte sent to the whole answer.
 * Measured here and not asserted in a unit test: a timed assertion would be flaky on shared CI.
 */
export async function measureReactLatency(runs = 20): Promise<{ bytes: number; runs: number; results: Record<string, { status: number; median: number; max: number }> }> {
  const args = ["serve", "--json", "--quiet", "--port", "0", "--otp-port", "0", "--db", ":memory:", "--clock", "manual", "--no-state-file"];
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "inherit"], env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  const ready = await new Promise<{ base_url: string }>((done) => createInterface({ input: child.stdout! }).once("line", (line) => done(JSON.parse(line))));
  const port = Number(new URL(ready.base_url).port);
  const post = async (path: string, body: string) => {
    const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEYS.messaging}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    return rawRequest(port, Buffer.concat([Buffer.from(head), Buffer.from(body)]));
  };
  try {
    const sent = JSON.parse((await post("/v1/messages", JSON.stringify({ to: "+14155550191", from_handle: "+14155550101", text: "react to me" }))).body).data;
    await post("/sandbox/v1/clock/advance", JSON.stringify({ duration: "1s" }));
    const results: Record<string, { status: number; median: number; max: number }> = {};
    for (const [name, unit] of [["ASCII", "x"], ["emoji (the segmenter's worst case)", "👍"], ["combining marks after an emoji", "\u0301"]] as const) {
      const body = largestBody(unit);
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        status = (await post(`/v1/messages/${sent.id}/react`, body)).status;
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      results[name] = { status, median: times[Math.floor(times.length / 2)]!, max: times.at(-1)! };
    }
    return { bytes: LIMIT, runs, results };
  } finally {
    child.kill("SIGTERM");
  }
}
