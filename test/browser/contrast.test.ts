import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM, useBrowser } from "../helpers/browser.js";
import { useServe } from "../helpers/cli.js";

/**
 * Text on coloured backgrounds reads at WCAG AA's 4.5:1 or more in both colour schemes
 * (docs/inspector.md): primary buttons, and the business's bubbles on each channel and before
 * one is chosen. Dark primary buttons were 2.6:1, white on the iMessage blue 3.65:1.
 */
describe.skipIf(!CHROMIUM)("the inspector's contrast", () => {
  const sandbox = useServe();
  const browser = useBrowser();

  /** Contrast of each element's text with its own background, as computed by the page. */
  const contrasts = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((elements) => {
      const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const luminance = (color: string) => {
        const [r = 0, g = 0, b = 0] = channels(color)
          .map((v) => v / 255)
          .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      // Drawn and on a background of their own (a transparent one shows the panel's).
      const shown = elements.filter(
        (element) => element.checkVisibility() && !getComputedStyle(element).backgroundColor.endsWith(", 0)"),
      );
      return shown.map((element) => {
        const style = getComputedStyle(element);
        const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a) as [
          number,
          number,
        ];
        return Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100;
      });
    });

  it.each([false, true])(
    "dark %s: primary buttons and the business's bubbles (SMS, iMessage, no channel yet) are 4.5:1 or more",
    async (dark) => {
      // An Android contact writes first; the business's answer goes by SMS.
      await sandbox.json("simulate", "inbound", "--from", "+14155550192", "--to", "+14155550101", "--text", "Hi");
      const sms = await sandbox.json("send", "--from", "+14155550101", "--to", "+14155550192", "--text", "By SMS");
      const imessage = await sandbox.json(
        "send",
        "--from",
        "+14155550101",
        "--to",
        "+14155550191",
        "--text",
        "By iMessage",
      );
      const page = await browser.open({ dark });
      // Before the clock moves no channel is chosen yet: the bubble is drawn without one.
      const queued = await sandbox.json(
        "send",
        "--from",
        "+14155550101",
        "--to",
        "+14155550191",
        "--text",
        "Not routed yet",
      );
      await page.goto(`${sandbox.serve.ready.inspector_url}#/phones/${queued.conversation_id}`);
      await page.locator(".phone.business .mine .bubble.pending").first().waitFor();
      for (const ratio of await contrasts(page, ".phone.business .mine .bubble.pending"))
        expect(ratio).toBeGreaterThanOrEqual(4.5);
      await sandbox.cli("clock", "advance", "5s");
      for (const [sent, channel] of [
        [sms, "sms"],
        [imessage, "imessage"],
      ] as const) {
        await page.goto(`${sandbox.serve.ready.inspector_url}#/phones/${sent.conversation_id}`);
        await page.locator(`.phone.business .mine .bubble.${channel}`).first().waitFor();
        const bubbles = await contrasts(page, `.phone.business .mine .bubble.${channel}`);
        const buttons = await contrasts(
          page,
          "button:not(.secondary):not(.icon):not(.link):not([aria-pressed]):not(:disabled)",
        );
        expect(buttons.length).toBeGreaterThan(3);
        for (const ratio of [...bubbles, ...buttons]) expect(ratio).toBeGreaterThanOrEqual(4.5);
      }
      expect(browser.errors).toEqual([]);
    },
  );
});
