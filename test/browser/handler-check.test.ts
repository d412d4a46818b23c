import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { CHROMIUM, SCREENSHOTS, useBrowser } from "../helpers/browser.js";
import { startHandler, type TestHandler } from "../helpers/webhook-handlers.js";

/** "Check a handler" in the inspector's Webhooks view (docs/inspector.md): the form and the report. */
describe.skipIf(!CHROMIUM)("checking a webhook handler from the inspector", () => {
  const KEY = "sk_test_acme_0000000000000000";
  const SECRET = "whsec_test_0123456789abcdef";
  const browser = useBrowser();
  let sandbox: Sandbox;
  const handlers: TestHandler[] = [];
  beforeAll(async () => {
    sandbox = await launchSandbox({ clock: "manual", port: 0, otpPort: 0 });
  });
  afterAll(async () => {
    await Promise.all(handlers.map((handler) => handler.close()));
    await sandbox?.stop();
  });

  const open = async (): Promise<Page> => {
    const page = await browser.open();
    await page.goto(`${sandbox.inspectorUrl}#/webhooks`);
    await page.getByText("live", { exact: true }).waitFor();
    return page;
  };
  const check = async (page: Page, url: string | null, secret = SECRET) => {
    const panel = page.getByRole("region", { name: "Check a handler" });
    if (url !== null) await panel.getByLabel("URL").fill(url);
    await panel.getByLabel("Secret").fill(secret);
    await panel.getByRole("button", { name: "Check" }).click();
  };

  it("a correct handler: every probe passes; the repeat's reminder to dedupe is shown", async () => {
    const handler = await startHandler(SECRET);
    handlers.push(handler);
    const page = await open();
    await check(page, handler.url);
    await expect.poll(() => page.getByTestId("check-verdict").textContent()).toBe("Passed: all 12 probes");
    expect(await page.locator(".check-probes li").count()).toBe(12);
    expect(await page.locator(".check-probes .badge.failed").count()).toBe(0);
    expect(await page.locator('.check-probes li[data-probe="duplicate_event"] .why').textContent()).toMatch(
      /X-Msgctl-Event-Id/,
    );
    expect(browser.errors).toEqual([]);
  });

  it("a handler without a replay window: the two timestamp probes fail, each saying what to change", async () => {
    const handler = await startHandler(SECRET, { signature: "no-timestamp" });
    handlers.push(handler);
    // The selected endpoint's URL is offered: only the secret is typed.
    const created = await fetch(`${sandbox.baseUrl}/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ url: handler.url, secret: SECRET }),
    });
    expect(created.status).toBe(201);
    const page = await open();
    await page.getByRole("button", { name: new RegExp(handler.url) }).click();
    await expect.poll(() => page.getByLabel("URL").inputValue()).toBe(handler.url);
    await check(page, null);
    await expect.poll(() => page.getByTestId("check-verdict").textContent()).toBe("2 of 12 probes failed");
    const failed = page.locator(".check-probes li:has(.badge.failed)");
    expect(await failed.evaluateAll((items) => items.map((item) => item.getAttribute("data-probe")))).toEqual([
      "stale_timestamp",
      "future_timestamp",
    ]);
    expect(await failed.nth(1).locator(".why").textContent()).toMatch(
      /^accepted with 200: t is 301 s in the future: the replay window holds both ways/,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "handler-check.png"), fullPage: true });
    expect(browser.errors).toEqual([]);
  });

  it("nothing at the URL: the sandbox's unreachable message, no report", async () => {
    const page = await open();
    await check(page, "http://127.0.0.1:9/webhooks");
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toMatch(/^Cannot reach the handler at http:\/\/127\.0\.0\.1:9\/webhooks: connection failed/);
    expect(await page.getByTestId("check-verdict").count()).toBe(0);
  });
});
