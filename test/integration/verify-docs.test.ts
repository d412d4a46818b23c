import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { triggerEvent } from "../../src/client/trigger.js";
import { EVENT_TYPES } from "../../src/contract/names.js";
import { startSandbox } from "../../src/index.js";
import { deliveriesOfEveryEvent, type RealDelivery } from "../helpers/real-deliveries.js";

/**
 * docs/verify.md's snippets, run as written: the Node and Python functions on real signed
 * deliveries of every event and on the ways a delivery must fail (a changed body, another secret,
 * a stale or future timestamp, a malformed header), and each language's receiver served to a
 * live sandbox: every delivery acknowledged, and refused once the sandbox signs with another secret.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const DOC = readFileSync(join(ROOT, "docs/verify.md"), "utf8");
const run = promisify(execFile);

/** The code block marked `<!-- tested: NAME -->` in docs/verify.md. */
function snippet(name: string): string {
  const found = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(DOC);
  if (!found?.[1]) throw new Error(`docs/verify.md has no snippet marked "tested: ${name}"`);
  return found[1];
}

/** A signature header as the spec defines it, made here independently of msgctl's code. */
const sign = (secret: string, t: number, body: Buffer) =>
  `t=${t},v1=${createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex")}`;

interface Case {
  name: string;
  body: string; // base64 of the raw bytes
  header: string | null;
  secret: string;
  valid: boolean;
}

function casesFrom(deliveries: RealDelivery[]): Case[] {
  const real = deliveries.map((d) => ({
    name: `a real ${d.type} delivery`,
    body: Buffer.from(d.body).toString("base64"),
    header: String(d.headers["x-service-signature"]),
    secret: d.secret,
    valid: true,
  }));
  const first = deliveries[0]!;
  const body = Buffer.from(first.body);
  const now = Math.floor(Date.now() / 1000);
  const header = String(first.headers["x-service-signature"]);
  const variant = (name: string, valid: boolean, changes: Partial<Case>): Case => ({
    name,
    body: body.toString("base64"),
    header,
    secret: first.secret,
    valid,
    ...changes,
  });
  const other = sign("whsec_another_secret_0000", now, body).split(",")[1];
  return [
    ...real,
    variant("a body that is not the bytes signed", false, { body: Buffer.from(`${first.body} `).toString("base64") }),
    variant("another secret", false, { secret: "whsec_another_secret_0000" }),
    variant("no header", false, { header: null }),
    variant("a malformed header", false, { header: "t=abc,v1=xyz" }),
    variant("a header without v1", false, { header: `t=${now}` }),
    variant("signed 10 minutes ago", false, { header: sign(first.secret, now - 600, body) }),
    variant("signed 10 minutes ahead", false, { header: sign(first.secret, now + 600, body) }),
    // Well inside the 300 s window, and far from its edges: the snippets run seconds after `now`.
    variant("signed 200 s ago", true, { header: sign(first.secret, now - 200, body) }),
    variant("two v1 values, the second right", true, {
      header: `${header.split(",")[0]},${other},${header.split(",")[1]}`,
    }),
  ];
}

describe("docs/verify.md: each function on real deliveries and on forgeries", () => {
  let cases: Case[];
  let dir: string;
  beforeAll(async () => {
    cases = casesFrom(await deliveriesOfEveryEvent());
    dir = mkdtempSync(join(tmpdir(), "msgctl-verify-docs-"));
    writeFileSync(join(dir, "cases.json"), JSON.stringify(cases));
  });
  const expected = () => Object.fromEntries(cases.map((c) => [c.name, c.valid]));

  it("Node: true for every real delivery of the nine events, false for each forgery", async () => {
    const file = join(dir, "verify.mjs");
    writeFileSync(
      file,
      `${snippet("node")}
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(process.argv[2], "utf8"));
console.log(JSON.stringify(Object.fromEntries(cases.map((c) => [c.name, verifySignature(Buffer.from(c.body, "base64"), c.header ?? undefined, c.secret)]))));
`,
    );
    const { stdout } = await run(process.execPath, [file, join(dir, "cases.json")]);
    expect(JSON.parse(stdout)).toEqual(expected());
    expect(cases.filter((c) => c.valid).length).toBeGreaterThanOrEqual(EVENT_TYPES.length);
  });

  it("Python: the same answers", async () => {
    const file = join(dir, "verify.py");
    writeFileSync(
      file,
      `${snippet("python")}

import base64, json, sys
cases = json.load(open(sys.argv[1]))
print(json.dumps({c["name"]: verify_signature(base64.b64decode(c["body"]), c["header"], c["secret"]) for c in cases}))
`,
    );
    const { stdout } = await run("python3", [file, join(dir, "cases.json")]);
    expect(JSON.parse(stdout)).toEqual(expected());
  });
});

/** Starts a receiver snippet on a free port; resolves once it printed the port it listens on. */
async function startReceiver(command: string, file: string, secret: string) {
  const child: ChildProcess = spawn(command, [file], {
    env: { PATH: process.env.PATH, PORT: "0", WEBHOOK_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const port = await new Promise<number>((resolvePort, reject) => {
    child.once("exit", (code) => reject(new Error(`the receiver exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      lines.push(line);
      const found = /^listening on (\d+)$/.exec(line);
      if (found) resolvePort(Number(found[1]));
    });
  });
  return { port, lines, stop: () => child.kill() };
}

describe.each([
  ["node", process.execPath, "receiver.mjs"],
  ["python", "python3", "receiver.py"],
])("docs/verify.md: the %s receiver, served to a live sandbox", (language, command, name) => {
  const secret = "whsec_verify_docs_receiver_0001";
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  afterAll(() => receiver?.stop());

  it("acknowledges every event's real delivery with 204, and refuses with 400 once the secret differs", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "msgctl-verify-receiver-")), name);
    writeFileSync(file, `${snippet(language)}\n\n${snippet(`${language} receiver`)}\n`);
    receiver = await startReceiver(command, file, secret);
    const sb = await startSandbox();
    try {
      const { webhook } = await sb.client.webhooks.create({
        url: `http://127.0.0.1:${receiver.port}/webhooks`,
        secret,
      });
      for (const type of EVENT_TYPES) await triggerEvent(sb.client, type);
      await sb.settle();
      const acknowledged = (await sb.client.webhooks.deliveries({ limit: 100 })).data;
      expect(acknowledged.length).toBeGreaterThanOrEqual(EVENT_TYPES.length);
      for (const delivery of acknowledged) {
        expect(delivery.status, delivery.event_type).toBe("succeeded");
        expect(delivery.attempts.map((a) => a.status_code)).toEqual([204]);
      }
      const handled = receiver.lines.slice(1).map((line) => line.split(" ")[0]);
      expect(new Set(handled)).toEqual(new Set(EVENT_TYPES));

      await sb.client.webhooks.update(webhook.id, { secret: "whsec_rotated_elsewhere_0002" });
      await triggerEvent(sb.client, "conversation.typing");
      await sb.settle();
      const [refused] = (await sb.client.webhooks.deliveries({ limit: 1 })).data;
      expect(refused?.attempts.map((a) => a.status_code)).toEqual([400]);
    } finally {
      await sb.stop();
    }
  });
});
