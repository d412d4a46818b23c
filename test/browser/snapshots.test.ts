import { describe, expect, it } from "vitest";
import { CHROMIUM, screenshot, useBrowser } from "../helpers/browser.js";
import { useServe } from "../helpers/cli.js";

const KEY = "sk_test_acme_0000000000000000";

/** The inspector's snapshots menu: save, restore (after asking), delete; the page follows a restore made elsewhere. */
describe.skipIf(!CHROMIUM)("the inspector's snapshots menu", () => {
  const sandbox = useServe();
  const browser = useBrowser();
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandbox.serve.ready.base_url}${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.ok, await response.clone().text()).toBe(true);
    return ((await response.json()) as { data: any }).data;
  };
  const send = (text: string) => api("POST", "/v1/messages", { from_handle: "+14155550101", to: "+14155550191", text });

  it("saves, restores after asking, deletes, and redraws when a restore is made elsewhere", async () => {
    const first = await send("Before the snapshot");
    const page = await browser.open();
    await page.goto(sandbox.serve.ready.inspector_url);
    const thread = page.locator(`a[data-conversation-id="${first.conversation_id}"]`);
    await thread.click();
    await page.locator(".phone.business .message", { hasText: "Before the snapshot" }).waitFor();

    // Save from the menu.
    await page.locator("details.snapshots > summary").click();
    const menu = page.getByRole("group", { name: "Snapshots" });
    await menu.getByLabel("Snapshot name").fill("with-one");
    await menu.getByRole("button", { name: "Save" }).click();
    await menu.locator('li[data-snapshot="with-one"]').waitFor();
    expect((await api("GET", "/sandbox/v1/snapshots")).map((s: { name: string }) => s.name)).toEqual(["with-one"]);
    // A bad name is said before any request.
    await menu.getByLabel("Snapshot name").fill("a b");
    await menu.getByRole("button", { name: "Save" }).click();
    await menu.getByRole("alert").filter({ hasText: "1 to 64 letters" }).waitFor();
    await menu.getByLabel("Snapshot name").fill("");

    // Something after the save, then restore: asked first; a dismissal changes nothing.
    await send("After the snapshot");
    await page.locator(".phone.business .message", { hasText: "After the snapshot" }).waitFor();
    page.once("dialog", (dialog) => void dialog.dismiss());
    await menu.getByRole("button", { name: "Restore with-one" }).click();
    expect(await page.locator(".phone.business .message", { hasText: "After the snapshot" }).count()).toBe(1);
    let asked = "";
    page.once("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await menu.getByRole("button", { name: "Restore with-one" }).click();
    await menu.getByRole("status").filter({ hasText: "Restored with-one" }).waitFor();
    expect(asked).toContain("every account included");
    await page.locator(".phone.business .message", { hasText: "After the snapshot" }).waitFor({ state: "detached" });
    // The page starts over after a restore: the older message is drawn again a moment later.
    const before = page.locator(".phone.business .message", { hasText: "Before the snapshot" });
    await before.first().waitFor();
    expect(await before.count()).toBe(1);
    await screenshot(page, "snapshots-menu");

    // A restore by another client (a test suite's) redraws the page through the activity stream.
    await send("Made by a test");
    await page.locator(".phone.business .message", { hasText: "Made by a test" }).waitFor();
    await api("POST", "/sandbox/v1/snapshots/with-one/restore");
    await page.locator(".phone.business .message", { hasText: "Made by a test" }).waitFor({ state: "detached" });

    await menu.getByRole("button", { name: "Delete with-one" }).click();
    await menu.getByText("No snapshots yet.").waitFor();
    expect(await api("GET", "/sandbox/v1/snapshots")).toEqual([]);
    expect(browser.errors).toEqual([]);
    await page.close();
  });

  it("an account the restored sandbox does not have gives way to one it has", async () => {
    await sandbox.reset();
    await api("POST", "/sandbox/v1/snapshots", { name: "acme-only" });
    const globex = await api("POST", "/sandbox/v1/accounts", { name: "Globex" });
    const page = await browser.open();
    await page.goto(sandbox.serve.ready.inspector_url);
    const switcher = page.getByRole("combobox", { name: "Account" });
    await switcher.waitFor();
    page.once("dialog", (dialog) => void dialog.accept(globex.api_key));
    await switcher.selectOption({ label: "Another key…" });
    await page.locator(".threads .number h2", { hasText: globex.numbers[0].handle }).waitFor();

    await api("POST", "/sandbox/v1/snapshots/acme-only/restore");
    await page.locator(".threads .number h2", { hasText: "+14155550101" }).waitFor();
    expect(await switcher.inputValue()).toBe("Acme");
    expect(await switcher.locator("option", { hasText: "Globex" }).count()).toBe(0);
    // Globex's key was tried first and refused (401): the one kind of error the page may log.
    expect(browser.errors.filter((error) => !error.includes("status of 401"))).toEqual([]);
    await page.close();
  });
});
