import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { CHROMIUM, useBrowser } from "../helpers/browser.js";

/**
 * The inspector with more than a page of everything (docs/inspector.md): long threads, many
 * threads, a delivery opened on a phone-sized screen, and a key mistyped in "Another key…".
 */
describe.skipIf(!CHROMIUM)("the inspector's long lists", () => {
  const KEY = "sk_test_lists_000000000000000";
  const MAIN = "+14155550101";
  const fixture = {
    accounts: [
      {
        name: "A company whose name is much too long to fit in a phone's header",
        api_key: KEY,
        numbers: [{ handle: MAIN, channels: ["imessage", "sms"] }],
      },
    ],
    contacts: [{ handle: "+14155550191", imessage: true, platform: "ios" }],
  };
  const browser = useBrowser();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await launchSandbox({ fixture, clock: "manual", port: 0, otpPort: 0 });
  });
  afterAll(() => sandbox?.stop());

  const api = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${sandbox.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: body && JSON.stringify(body),
    });
    const parsed = await response.json();
    expect(response.status, JSON.stringify(parsed)).toBeLessThan(300);
    return parsed.data;
  };
  const send = (to: string, text: string) => api("POST", "/v1/messages", { from_handle: MAIN, to, text });
  const open = async (hash = "", size: { width?: number } = {}): Promise<Page> => {
    const page = await browser.open(size);
    await page.goto(`${sandbox.inspectorUrl}${hash}`);
    await page.getByText("live", { exact: true }).waitFor();
    return page;
  };

  it("keeps every message of a long thread after earlier pages were loaded and new ones arrived (#254-256 of 300 were missing)", async () => {
    const first = await send("+14155550191", "message 1");
    for (let n = 2; n <= 120; n++) await send("+14155550191", `message ${n}`);
    const page = await open(`#/phones/${first.conversation_id}`);
    const bubbles = page.locator(".phone.business .message[data-message-id]");
    await expect.poll(() => bubbles.count()).toBe(50);
    for (const shown of [100, 120]) {
      await page.locator(".phone.business").getByRole("button", { name: "Load earlier messages" }).click();
      await expect.poll(() => bubbles.count()).toBe(shown);
    }
    // Ten more push the newest page of 50 up by ten: the ten it dropped are loaded too.
    for (let n = 121; n <= 130; n++) await send("+14155550191", `message ${n}`);
    await page.locator(".phone.business .message", { hasText: "message 130" }).waitFor();
    await expect.poll(() => bubbles.count()).toBe(130);
    const texts = await page.locator(".phone.business .message[data-message-id] .text").allTextContents();
    expect(texts).toEqual(Array.from({ length: 130 }, (_, i) => `message ${i + 1}`));
    expect(browser.errors).toEqual([]);
  });

  it("lists threads past the first 100 with More threads", async () => {
    // 104 more threads after the first test's: 105 in all.
    for (let n = 0; n < 104; n++) await send(`+1212555${String(1000 + n)}`, "hello");
    const page = await open("#/phones");
    const threads = page.locator(".threads a[data-conversation-id]");
    await expect.poll(() => threads.count()).toBe(100);
    await page.getByRole("button", { name: "More threads" }).click();
    await expect.poll(() => threads.count()).toBe(105);
    expect(await page.getByRole("button", { name: "More threads" }).count()).toBe(0);
    // The oldest thread, the long one, is the last listed.
    expect(await threads.last().textContent()).toContain("+14155550191");
  });

  it("at 390 px: opens a delivery in place of the lists, at its top, and a long account name does not widen the page", async () => {
    const hook = await api("POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["message.sent"] });
    expect(hook.id).toBeTruthy();
    for (let n = 0; n < 60; n++) await send("+14155550191", `to deliver ${n}`);
    await sandbox.control.advance(5_000);
    const page = await open("#/webhooks", { width: 390 });
    const links = page.locator(".deliveries a[data-delivery-id]");
    await expect.poll(() => links.count()).toBe(50);
    await links.last().scrollIntoViewIfNeeded();
    await links.last().click();
    const detail = page.getByRole("region", { name: "Delivery" });
    await detail.waitFor();
    expect(await page.locator(".deliveries").isVisible()).toBe(false);
    const box = await detail.boundingBox();
    expect(box && box.y >= 0 && box.y < 800).toBe(true);
    await page.getByRole("link", { name: "← Deliveries" }).click();
    await links.first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it("keeps the account shown when the key given to Another key… is not one of the sandbox's", async () => {
    const page = await open("#/phones");
    const said: string[] = [];
    page.on("dialog", (dialog) => {
      said.push(dialog.message());
      void (dialog.type() === "prompt" ? dialog.accept("sk_test_mistyped") : dialog.accept());
    });
    await page.getByRole("combobox", { name: "Account" }).selectOption({ label: "Another key…" });
    await expect.poll(() => said.length).toBe(2);
    expect(said[1]).toBe("That key is not one of this sandbox's.");
    await page.locator(".threads a[data-conversation-id]").first().waitFor();
    expect(await page.getByRole("combobox", { name: "Account" }).inputValue()).toBe(fixture.accounts[0]?.name);
  });
});
