import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { CHROMIUM, useBrowser } from "../helpers/browser.js";

/**
 * A sandbox restarted over a database seeded by a fixture without keys shows no key in the page
 * (they were shown once, at the first start): the inspector asks for one (docs/inspector.md).
 */
describe.skipIf(!CHROMIUM)("the inspector when the sandbox shows no key", () => {
  const fixture = {
    accounts: [{ name: "Keyless", numbers: [{ handle: "+14155550171", channels: ["imessage", "sms"] }] }],
  };
  const browser = useBrowser();
  let sandbox: Sandbox;
  let key: string;
  beforeAll(async () => {
    const db = join(mkdtempSync(join(tmpdir(), "msgctl-key-form-")), "sandbox.db");
    const first = await launchSandbox({ db, fixture, clock: "manual", port: 0, otpPort: 0 });
    key = first.accounts[0]?.api_key as string;
    await first.stop();
    sandbox = await launchSandbox({ db, fixture, clock: "manual", port: 0, otpPort: 0 });
  });
  afterAll(() => sandbox?.stop());

  it("asks for a key at once (it waited on 'Connecting…' forever), opens with the pasted one, and keeps it across a reload", async () => {
    expect(sandbox.accounts[0]?.api_key).toBeNull();
    const page = await browser.open();
    await page.goto(sandbox.inspectorUrl);
    await page.getByRole("alert").filter({ hasText: "paste an API key" }).waitFor({ timeout: 5_000 });
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Open" }).click();
    await page.locator(".threads .number h2", { hasText: "+14155550171" }).waitFor();
    await page.reload();
    await page.locator(".threads .number h2", { hasText: "+14155550171" }).waitFor({ timeout: 5_000 });
    expect(browser.errors).toEqual([]);
  });
});
