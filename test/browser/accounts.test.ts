import { describe, expect, it } from "vitest";
import { CHROMIUM, useBrowser } from "../helpers/browser.js";
import { runCli, useServe } from "../helpers/cli.js";

/** The inspector's account switcher: each account's own threads, with its own key. */
describe.skipIf(!CHROMIUM)("the inspector's accounts", () => {
  const sandbox = useServe();
  const browser = useBrowser();

  it("switches between accounts, taking a pasted key for one whose key the sandbox no longer shows", async () => {
    const other = await sandbox.json("accounts", "create", "--name", "Globex");
    const acme = await sandbox.json("send", "--from", "+14155550101", "--to", "+14155550191", "--text", "From Acme");
    const sent = await runCli([
      "send",
      "--from",
      other.numbers[0].handle,
      "--to",
      "+14155550191",
      "--text",
      "From Globex",
      "--base-url",
      sandbox.serve.ready.base_url,
      "--api-key",
      other.api_key,
    ]);
    expect(sent.code, sent.stderr).toBe(0);
    const page = await browser.open();
    await page.goto(sandbox.serve.ready.inspector_url);
    const switcher = page.getByRole("combobox", { name: "Account" });
    await switcher.waitFor();
    await page.locator(`a[data-conversation-id="${acme.conversation_id}"]`).waitFor();

    // An account made on demand never shows its key again: the page asks for it.
    expect(await switcher.locator("option", { hasText: "Globex (key needed)" }).isDisabled()).toBe(true);
    page.once("dialog", (dialog) => void dialog.accept(other.api_key));
    await switcher.selectOption({ label: "Another key…" });
    await page.locator(".threads .number h2", { hasText: other.numbers[0].handle }).waitFor();
    expect(await page.locator(`a[data-conversation-id="${acme.conversation_id}"]`).count()).toBe(0);
    await page.locator(".threads a[data-conversation-id]").first().click();
    await page.locator(".phone.business .message", { hasText: "From Globex" }).waitFor();
    // The choice and the pasted key are kept across a reload of the page; Acme is a choice away.
    await page.reload();
    const again = page.getByRole("combobox", { name: "Account" });
    await page.locator(".threads .number h2", { hasText: other.numbers[0].handle }).waitFor();
    expect(await again.inputValue()).toBe("Globex");
    await again.selectOption("Acme");
    await page.locator(`a[data-conversation-id="${acme.conversation_id}"]`).waitFor();
    expect(browser.errors).toEqual([]);
  });
});
