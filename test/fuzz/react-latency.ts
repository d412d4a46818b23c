import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { rawRequest } from "../helpers/raw-http.js";
import { KEYS } from "./pools.js";

const BIN = resolve(import.meta.dirname, "../../bin/msgctl");
const LIMIT = 1024 * 1024;

/** CPU time a process has used (user + system), in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** A body of exactly 1 MiB whose `reaction` is made of `unit` (the largest the route reads). */
function largestBody(unit: string): string {
  const prefix = '{"reaction":"';
  let reaction = unit.repeat(Math.floor((LIMIT - prefix.length - 2) / Buffer.byteLength(unit)));
  while (Buffer.byteLength(prefix + reaction + '"}') < LIMIT) reaction += "x";
  return `${prefix}${reaction}"}`;
}

/**
 * Times `POST /v1/messages/:id/react` with the largest legal body (1 MiB, one huge `reaction`)
 * against a real `msgctl serve`, over loopback, from the first byte sent to the whole answer,
 * and the server's CPU time per request (which a busy shared machine does not inflate).
 * Measured here and not asserted in a unit test: a timed assertion would be flaky on shared CI.
 */
export async function measureReactLatency(runs = 20): Promise<{
  bytes: number;
  runs: number;
  results: Record<string, { status: number; median: number; max: number; cpuMs: number }>;
}> {
  const args = [
    "serve",
    "--json",
    "--quiet",
    "--port",
    "0",
    "--otp-port",
    "0",
    "--db",
    ":memory:",
    "--clock",
    "manual",
    "--no-state-file",
  ];
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const ready = await new Promise<{ base_url: string }>((done) =>
    createInterface({ input: child.stdout! }).once("line", (line) => done(JSON.parse(line))),
  );
  const port = Number(new URL(ready.base_url).port);
  const post = async (path: string, body: string) => {
    const head = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEYS.messaging}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    return rawRequest(port, Buffer.concat([Buffer.from(head), Buffer.from(body)]));
  };
  try {
    const sent = JSON.parse(
      (
        await post(
          "/v1/messages",
          JSON.stringify({ to: "+14155550191", from_handle: "+14155550101", text: "react to me" }),
        )
      ).body,
    ).data;
    await post("/sandbox/v1/clock/advance", JSON.stringify({ duration: "1s" }));
    const results: Record<string, { status: number; median: number; max: number; cpuMs: number }> = {};
    for (const [name, unit] of [
      ["ASCII", "x"],
      ["emoji (the segmenter's worst case)", "👍"],
      ["combining marks after an emoji", "\u0301"],
    ] as const) {
      const body = largestBody(unit);
      const times: number[] = [];
      let status = 0;
      const cpuBefore = cpuMs(child.pid!);
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        status = (await post(`/v1/messages/${sent.id}/react`, body)).status;
        times.push(performance.now() - start);
      }
      const cpu = (cpuMs(child.pid!) - cpuBefore) / runs;
      times.sort((a, b) => a - b);
      results[name] = { status, median: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, cpuMs: cpu };
    }
    return { bytes: LIMIT, runs, results };
  } finally {
    child.kill("SIGTERM");
  }
}
