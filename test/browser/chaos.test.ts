import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decideDelivery } from "../../src/domain/chaos/index.js";
import { launchSandbox, type Sandbox } from "../../src/runtime/launch-sandbox.js";
import { CHROMIUM, SCREENSHOTS, useBrowser } from "../helpers/browser.js";
import { seedWhere } from "../helpers/chaos.js";

/**
 * Seeded chaos in the inspector (docs/inspector.md, "Chaos"): the chaos in force in the header,
 * the Chaos view (switching it, the rates, the log), and the marks on the deliveries it touched.
 */
describe.skipIf(!CHROMIUM)("seeded chaos in the inspector", () => {
  const KEY = "sk_test_acme_0000000000000000";
  // The first event to the endpoint is copied; the second is held back.
  const seed = seedWhere((chaos) => {
    const [first, second] = [1, 2].map((event) => decideDelivery(chaos, event, 1));
    return (
      first?.duplicateAfterMs !== undefined &&
      first.extraWaitMs === undefined &&
      !first.swap &&
      second?.extraWaitMs !== undefined &&
      !second.swap
    );
  });
  const browser = useBrowser();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await launchSandbox({ clock: "manual", port: 0, otpPort: 0, chaos: { seed, profile: "rough" } });
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
  const open = async (hash: string): Promise<Page> => {
    const page = await browser.open();
    await page.goto(`${sandbox.inspectorUrl}${hash}`);
    await page.getByText("live", { exact: true }).waitFor();
    return page;
  };

  it("shows the chaos in force in the header and its rates; marks the deliveries it touched, and its log links to them", async () => {
    const page = await open("#/chaos");
    await expect.poll(() => page.locator(".chaos-on").textContent()).toBe(`chaos "${seed}" · rough`);
    await expect.poll(() => page.getByTestId("chaos-state").textContent()).toBe(`On: seed "${seed}", profile rough`);
    expect(await page.locator('.chaos-rates tr[data-kind="duplicate"] .rate').textContent()).toBe("25%");
    expect(await page.locator('.chaos-rates tr[data-kind="number_offline"] .rate').textContent()).toBe("5%");
    await page.getByText("Nothing yet for this account.").waitFor();

    await api("POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["message.received"] });
    for (const text of ["one", "two"]) {
      await api("POST", "/sandbox/v1/simulate/inbound", { from: "+14155550191", to: "+14155550101", text });
    }
    await api("POST", "/sandbox/v1/clock/advance", { duration: "2m" });
    // Newest first: the hold of event 2 and the copy of event 1, with their lengths.
    const entries = page.locator(".chaos-log li");
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.nth(0).getAttribute("data-kind")).toBe("delayed");
    expect(await entries.nth(1).getAttribute("data-kind")).toBe("duplicate");
    expect(await entries.nth(1).textContent()).toMatch(/event #1 message\.received → endpoint #1 by \d+ ms/);
    await page.screenshot({ path: join(SCREENSHOTS, "chaos-view.png"), fullPage: true });

    // The copy's entry opens the copy, marked, with the header its attempts carried.
    await entries.nth(1).getByRole("link").click();
    await page.getByTestId("chaos-header").waitFor();
    expect(await page.getByTestId("chaos-header").textContent()).toBe("duplicate");
    expect(await page.locator(".chaos-note").textContent()).toMatch(/a copy of its event/);
    const marked = page.locator(".deliveries li .badge.chaos");
    await expect.poll(() => marked.allTextContents()).toEqual(expect.arrayContaining(["duplicate", "delayed"]));
    // The original of event 1 is not marked.
    const deliveries = (await api("GET", "/sandbox/v1/deliveries")) as { id: string; chaos: string | null }[];
    const plain = deliveries.find((d) => d.chaos === null);
    expect(plain).toBeDefined();
    await page.goto(`${sandbox.inspectorUrl}#/webhooks/${plain?.id}`);
    await page.getByTestId("attempt-header").waitFor();
    expect(await page.getByTestId("chaos-header").count()).toBe(0);
    expect(await page.locator(".chaos-note").count()).toBe(0);
    expect(browser.errors).toEqual([]);
  });

  it("switches chaos off and on again: a plain whole number is a number seed", async () => {
    const page = await open("#/chaos");
    await page.getByRole("button", { name: "Switch off" }).click();
    await expect.poll(() => page.getByTestId("chaos-state").textContent()).toMatch(/^Off: /);
    await expect.poll(() => page.locator(".chaos-on").count()).toBe(0);
    expect(await page.locator(".chaos-rates").count()).toBe(0);
    expect((await api("GET", "/sandbox/v1/chaos")).enabled).toBe(false);

    await page.getByRole("textbox", { name: "Seed" }).fill("7");
    await page.getByLabel("Profile").selectOption("mild");
    await page.getByRole("button", { name: "Switch on" }).click();
    await expect.poll(() => page.getByTestId("chaos-state").textContent()).toBe("On: seed 7, profile mild");
    expect(await page.locator(".chaos-on").textContent()).toBe("chaos 7 · mild");
    expect(await api("GET", "/sandbox/v1/chaos")).toMatchObject({ enabled: true, seed: 7, profile: "mild" });
    expect(browser.errors).toEqual([]);
  });
});
