import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import sharp from "sharp";
import { describe, expect, it, vi } from "vitest";
import { CHROMIUM, screenshot } from "../helpers/browser.js";
import { useInspectorPage } from "../helpers/inspector-page.js";
import { MAIN, IPHONE } from "../helpers/messages.js";
import { startReceiver } from "../helpers/webhook-receiver.js";

/**
 * The inspector in a real browser: a `msgctl serve` on a manual clock, driven from the
 * CLI and from the page, checked in what the page shows. Screenshots of each view are saved
 * under test-artifacts/screenshots.
 */

describe.skipIf(!CHROMIUM)("the inspector in Chromium", () => {
  const ui = useInspectorPage();
  const { sandbox, browser, bubble, openThread } = ui;

  it("shows a send from the CLI as a bubble at once, and its status advances live as the clock is advanced from the page", async () => {
    const sent = await sandbox.json("send", "--from", MAIN, "--to", IPHONE, "--text", "Your order has shipped");
    // The new thread appears in the list without a reload.
    await ui.page.locator(`a[data-conversation-id="${sent.conversation_id}"]`).click();
    await bubble(sent.id).locator(".status", { hasText: "Queued" }).waitFor();
    // On the contact's phone only once delivered.
    expect(await bubble(sent.id, "contact").count()).toBe(0);

    await ui.page.getByRole("button", { name: "Advance the clock 5s" }).click();
    await bubble(sent.id)
      .locator(".status", { hasText: /^Read / })
      .waitFor();
    await bubble(sent.id, "contact").waitFor();
    expect(await ui.page.getByTestId("clock-now").textContent()).toContain("manual");
    await screenshot(ui.page, "phones-1280");
  });

  it("sends a reply typed as the contact; it reaches a local webhook receiver as message.received", async () => {
    await sandbox.json("webhooks", "create", "--url", ui.receiver.url);
    const [chat] = await sandbox.json("chats", "list");
    await openThread(chat.id);
    const reply = ui.page.getByRole("textbox", { name: "Reply as the contact" });
    await reply.fill("Thanks! When will it arrive?");
    await reply.press("Enter");

    await vi.waitFor(
      () =>
        expect(ui.receiver.requests.map((r) => JSON.parse(r.body))).toContainEqual(
          expect.objectContaining({
            type: "message.received",
            text: "Thanks! When will it arrive?",
            from: IPHONE,
            to: MAIN,
          }),
        ),
      { timeout: 10_000 },
    );
    await ui.page.locator(".phone.business .message.theirs", { hasText: "Thanks! When will it arrive?" }).waitFor();
    await ui.page.locator(".phone.contact .message.mine", { hasText: "Thanks! When will it arrive?" }).waitFor();
  });

  it("sends as the business from the page (POST /v1/messages) and shows the contact's reaction from the page", async () => {
    const [chat] = await sandbox.json("chats", "list");
    await openThread(chat.id);
    const composer = ui.page.getByRole("textbox", { name: "Message to send as the business" });
    await composer.fill("Tomorrow before noon");
    await composer.press("Enter");
    const mine = ui.page.locator(".phone.business .message.mine", { hasText: "Tomorrow before noon" });
    await mine.waitFor();
    await ui.page.getByRole("button", { name: "Advance the clock 5s" }).click();
    const onContact = ui.page.locator(".phone.contact .message.theirs", { hasText: "Tomorrow before noon" });
    await onContact.waitFor();
    // React as the contact from the message's menu, by keyboard.
    await onContact.locator("summary").focus();
    await ui.page.keyboard.press("Enter");
    await onContact.getByRole("button", { name: "React love" }).click();
    await mine.locator(".reactions li", { hasText: "❤️" }).waitFor();
    const [message] = await sandbox.json("messages", "list", "--conversation", chat.id, "--limit", "1");
    expect(message).toMatchObject({ text: "Tomorrow before noon", direction: "outbound", status: "read" });
  });

  it("draws a failing receiver's delivery on the retry ladder, one more rung per advance, and resends it", async () => {
    const failing = await startReceiver();
    failing.reply(() => ({ status: 500 }));
    try {
      const hook = await sandbox.json("webhooks", "create", "--url", failing.url, "--events", "message.received");
      await sandbox.json("simulate", "inbound", "--from", IPHONE, "--to", MAIN, "--text", "Is anyone there?");
      await vi.waitFor(() => expect(failing.requests).toHaveLength(1), { timeout: 10_000 });
      const [delivery] = await sandbox.json("webhooks", "deliveries", "--webhook", hook.id);
      await ui.page.goto(`${sandbox.serve.ready.inspector_url}#/webhooks/${delivery.id}`);
      const rung = (n: number) => ui.page.locator(`.ladder [data-attempt="${n}"]`);
      await rung(1).and(ui.page.locator(".failed")).waitFor();
      await rung(2).and(ui.page.locator(".next")).waitFor();
      await ui.page.getByRole("button", { name: "Advance the clock 5s" }).click();
      await rung(2).and(ui.page.locator(".failed")).waitFor();
      await ui.page.getByRole("button", { name: "Advance the clock 1m" }).click();
      await rung(3).and(ui.page.locator(".failed")).waitFor();
      expect(await rung(3).textContent()).toContain("500");
      expect(await rung(4).textContent()).toMatch(/next at .* \(in 10 m\)/);
      expect(await ui.page.getByTestId("raw-body").textContent()).toBe(failing.requests[2]?.body);
      // The signature header each attempt carried, the newest shown first; any other on a click.
      expect(await ui.page.getByTestId("signature").textContent()).toBe(
        failing.requests[2]?.headers["x-service-signature"],
      );
      await ui.page.getByRole("button", { name: "Show the headers of attempt 1" }).click();
      expect(await ui.page.getByTestId("signature").textContent()).toBe(
        failing.requests[0]?.headers["x-service-signature"],
      );
      await screenshot(ui.page, "webhooks-ladder-1280");

      // Fixed: resend it by hand, outside the ladder; acknowledged, it settles the delivery.
      failing.reply(() => ({ status: 204 }));
      await ui.page.getByRole("button", { name: "Resend now" }).click();
      await ui.page.getByRole("list", { name: "Resends" }).locator(".rung.ok", { hasText: "204" }).waitFor();
      await ui.page.locator(".delivery h2 .badge", { hasText: "succeeded" }).waitFor();
      expect(failing.requests.at(-1)?.headers["x-msgctl-resend"]).toBe("1");
      // The X-Msgctl-Attempt shown is the one sent: the rung a resend repeats (3), not its place (4).
      await ui.page.getByRole("button", { name: "Show the headers of resend 4" }).click();
      expect(await ui.page.getByTestId("attempt-header").textContent()).toBe(
        failing.requests.at(-1)?.headers["x-msgctl-attempt"],
      );
      expect(failing.requests.at(-1)?.headers["x-msgctl-attempt"]).toBe("3");
    } finally {
      await failing.close();
    }
  });

  it("shows an image attachment as a thumbnail through its signed URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), "msgctl-inspector-"));
    const photo = join(dir, "photo.png");
    await sharp({ create: { width: 120, height: 90, channels: 3, background: { r: 230, g: 80, b: 40 } } })
      .png()
      .toFile(photo);
    const inbound = await sandbox.json("simulate", "inbound", "--from", IPHONE, "--to", MAIN, "--attach", photo);
    await openThread(inbound.conversation_id);
    const image = bubble(inbound.id).locator("img.media");
    await image.waitFor();
    await ui.page.waitForFunction((id) => {
      const img = document.querySelector<HTMLImageElement>(`.phone.business [data-message-id="${id}"] img.media`);
      return img !== null && img.complete && img.naturalWidth === 120;
    }, inbound.id);
    expect(await image.getAttribute("alt")).toBe("photo.png");

    // Sent from the page as the business: the file goes up through the typed client (FormData).
    await ui.page.getByLabel("Attach files to send", { exact: true }).setInputFiles(photo);
    await ui.page.locator(".phone.business").getByRole("button", { name: "Send", exact: true }).click();
    const sent = ui.page.locator(".phone.business .message.mine img.media[alt='photo.png']");
    await sent.waitFor();
    await ui.page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>(".phone.business .message.mine img.media")].some(
          (img) => img.complete && img.naturalWidth === 120,
        ),
      null,
    );
  });

  it("lists events live with their payloads", async () => {
    await ui.page.goto(`${sandbox.serve.ready.inspector_url}#/events`);
    const typing = await sandbox.cli("simulate", "typing", "--from", IPHONE, "--to", MAIN);
    expect(typing.code, typing.stderr).toBe(0);
    const row = ui.page.locator('[data-event-type="conversation.typing"]').first();
    await row.waitFor();
    await row.locator("summary").click();
    expect(await row.locator(".payload").textContent()).toContain('"typing": true');
    await screenshot(ui.page, "events-1280");
  });

  it("works at 390 px: one phone at a time, a toggle between them, nothing wider than the screen", async () => {
    const narrow = await browser.open({ width: 390, height: 844 });
    const [chat] = await sandbox.json("chats", "list");
    await narrow.goto(`${sandbox.serve.ready.inspector_url}#/phones/${chat.id}`);
    await narrow.locator(".phone.business .message").first().waitFor();
    expect(await narrow.locator(".phone.contact").isVisible()).toBe(false);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(narrow, "phones-390-business");
    await narrow.getByRole("button", { name: "Contact", exact: true }).click();
    await narrow.locator(".phone.contact .message").first().waitFor();
    expect(await narrow.locator(".phone.business").isVisible()).toBe(false);
    await screenshot(narrow, "phones-390-contact");
    await narrow.close();
  });

  it("follows the system's dark mode", async () => {
    const dark = await browser.open({ dark: true });
    const [chat] = await sandbox.json("chats", "list");
    await dark.goto(`${sandbox.serve.ready.inspector_url}#/phones/${chat.id}`);
    await dark.locator(".phone.business .message").first().waitFor();
    const background = await dark.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe("rgb(18, 18, 20)");
    await screenshot(dark, "phones-1280-dark");
    await dark.close();
  });

  it("labels every control and reaches the clock and the views by keyboard", async () => {
    const sent = await sandbox.json("send", "--from", MAIN, "--to", IPHONE, "--text", "Labelled?");
    await openThread(sent.conversation_id);
    const unlabelled = await ui.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>("button, input, select, textarea, summary, a[href]")]
        .filter((element) => {
          const labels = (element as HTMLInputElement).labels;
          const name =
            element.getAttribute("aria-label") ||
            element.textContent?.trim() ||
            (labels && labels.length > 0 ? labels[0]?.textContent?.trim() : "") ||
            element.getAttribute("title");
          return !name;
        })
        .map((element) => element.outerHTML.slice(0, 120)),
    );
    expect(unlabelled).toEqual([]);
    const reached = new Set<string>();
    // From the top of the page, as after a load.
    await ui.page.reload();
    await ui.page.locator(".phone.business .phone-head").waitFor();
    for (let i = 0; i < 15; i++) {
      await ui.page.keyboard.press("Tab");
      reached.add(
        await ui.page.evaluate(
          () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent?.trim() ?? "",
        ),
      );
    }
    expect([...reached]).toContain("Advance the clock 5s");
    expect([...reached]).toContain("Events");
  });

  it("logged no page errors", () => {
    expect(browser.errors).toEqual([]);
  });
});
