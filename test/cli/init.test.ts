import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { init, type Prompts } from "../../src/cli/commands/init.js";
import { createOutput } from "../../src/cli/output.js";
import { parseFixture } from "../../src/domain/control/index.js";

const out = createOutput({ json: false, color: false, interactive: true, stdout: () => {}, stderr: () => {} });

/** Prompts that answer from a script, in order, and record the questions. */
function scripted(answers: unknown[]): Prompts & { asked: string[] } {
  const asked: string[] = [];
  const next = (config: { message: string; default?: unknown; validate?: (v: string) => boolean | string }) => {
    asked.push(config.message);
    if (answers.length === 0) throw new Error(`no answer for "${config.message}"`);
    const answer = answers.shift();
    const value = answer === undefined ? config.default : answer;
    if (config.validate && config.validate(value as string) !== true)
      throw new Error(`invalid answer ${String(value)}`);
    return Promise.resolve(value as never);
  };
  return { asked, input: next, confirm: next, select: next, checkbox: next } as Prompts & { asked: string[] };
}

describe("msgctl init (README.md)", () => {
  const dir = mkdtempSync(join(tmpdir(), "msgctl-init-"));

  it("writes a fixture from the answers that serve accepts", async () => {
    const path = join(dir, "answers.json");
    const prompts = scripted([
      "Shop", // account name
      undefined, // app name (default: account name)
      "+1 415 555 0121", // number
      ["imessage", "sms", "whatsapp"],
      "front desk",
      "cloud", // WhatsApp API
      false, // another number?
      true, // add a contact?
      "+14155550199",
      "android",
      false, // WhatsApp
      true, // reachable
      false, // read receipts
      false, // another contact?
      undefined, // OTP number default
    ]);
    await init({ output: path }, out, prompts);
    const written = JSON.parse(readFileSync(path, "utf8"));
    expect(written.accounts[0]).toEqual({
      name: "Shop",
      app_name: "Shop",
      numbers: [
        {
          handle: "+14155550121",
          channels: ["imessage", "sms", "whatsapp"],
          label: "front desk",
          whatsapp_api: "cloud",
        },
      ],
    });
    expect(written.contacts).toEqual([
      {
        handle: "+14155550199",
        platform: "android",
        imessage: false,
        whatsapp: false,
        reachable: true,
        read_receipts: false,
      },
    ]);
    expect(() => parseFixture(written, path)).not.toThrow();
  });

  it("re-asks an invalid phone number (validation in the prompt)", async () => {
    const prompts = scripted(["Shop", undefined, "+1 555 555 0100"]);
    await expect(init({ output: join(dir, "never.json") }, out, prompts)).rejects.toThrow(/invalid answer/);
  });

  it("--yes writes a starter fixture without asking", async () => {
    const path = join(dir, "starter.json");
    await init({ output: path, yes: true }, out, scripted([]));
    expect(parseFixture(JSON.parse(readFileSync(path, "utf8")), path).accounts[0]?.name).toBe("My App");
  });

  it("does not overwrite an existing file unless told", async () => {
    const path = join(dir, "exists.json");
    writeFileSync(path, "keep me");
    await expect(init({ output: path, yes: true }, out, scripted([]))).rejects.toThrow(/exists: pass --force/);
    expect(readFileSync(path, "utf8")).toBe("keep me");
    await init({ output: path, yes: true, force: true }, out, scripted([]));
    expect(readFileSync(path, "utf8")).toContain("My App");
  });
});
