import { describe, expect, it } from "vitest";
import { CHROMIUM, screenshot } from "../helpers/browser.js";
import { useInspectorPage } from "../helpers/inspector-page.js";
import { MAIN, IPHONE } from "../helpers/messages.js";

/**
 * The inspector in a real browser, the contacts' side: a user texting an OTP code from the page,
 * a group member writing and renaming, a contact's typing bubble, and the moves a message's
 * status allows. A `msgctl serve` on a manual clock, driven from the CLI and from the page.
 */

describe.skipIf(!CHROMIUM)("the inspector in Chromium", () => {
  const ui = useInspectorPage();
  const { sandbox, browser, bubble, openThread } = ui;

  it("verifies an OTP challenge when “Text the right code” is clicked; a wrong code counts; expiry counts down on the sandbox clock", async () => {
    const { otp_url: otpUrl, accounts } = sandbox.serve.ready;
    const create = async (phone: string) =>
      (
        (await (
          await fetch(`${otpUrl}/v1/challenges`, {
            method: "POST",
            headers: { authorization: `Bearer ${accounts[0]?.otp_api_key}`, "content-type": "application/json" },
            body: JSON.stringify({ phone }),
          })
        ).json()) as { data: { id: string; code: string } }
      ).data;
    const right = await create("+14155550123");
    await ui.page.goto(`${sandbox.serve.ready.inspector_url}#/otp`);
    const card = ui.page.locator(`[data-challenge-id="${right.id}"]`);
    await card.locator(".code", { hasText: right.code }).waitFor();
    expect(await card.locator(".meta").textContent()).toContain("expires in 10 m");
    // A challenge created while the page is open appears live.
    const wrong = await create("+14155550124");
    const wrongCard = ui.page.locator(`[data-challenge-id="${wrong.id}"]`);
    await wrongCard.waitFor();

    await card.getByRole("button", { name: "Text the right code" }).click();
    await ui.page.locator(`[data-challenge-id="${right.id}"][data-status="verified"]`).waitFor();
    const thread = ui.page.getByRole("region", { name: "+14155550123's OTP thread" });
    await thread.locator(".message.mine", { hasText: right.code }).waitFor();
    await thread.locator(".message.theirs", { hasText: "verified" }).waitFor();
    const status = await (
      await fetch(`${otpUrl}/v1/challenges/${right.id}`, {
        headers: { authorization: `Bearer ${accounts[0]?.otp_api_key}` },
      })
    ).json();
    expect(status.data.status).toBe("verified");
    await screenshot(ui.page, "otp-1280");

    await wrongCard.getByRole("button", { name: "Text a wrong code" }).click();
    await wrongCard.locator(".meta", { hasText: "1 wrong text" }).waitFor();
    await ui.page.getByRole("button", { name: "Advance the clock 10m" }).click();
    await ui.page.locator(`[data-challenge-id="${wrong.id}"][data-status="expired"]`).waitFor();
  });

  it("shows a group with its title and members; a member writes, renames it, and sees the business typing", async () => {
    const group = await sandbox.json(
      "chats",
      "create",
      "--from",
      MAIN,
      "--to",
      `${IPHONE},+14155550193`,
      "--message",
      "Hi all",
      "--title",
      "Weekend",
    );
    await openThread(group.id);
    const head = ui.page.locator(".phone.business .phone-head");
    await head.getByText("Weekend").waitFor();
    expect(await head.textContent()).toContain(`${IPHONE}, +14155550193`);
    // As the second member: their message shows on the business's phone under their name.
    await ui.page.locator(".phone.contact select").selectOption("+14155550193");
    const reply = ui.page.getByRole("textbox", { name: "Reply as the contact" });
    await reply.fill("Count me in");
    await reply.press("Enter");
    const theirs = ui.page.locator(".phone.business .message.theirs", { hasText: "Count me in" });
    await theirs.waitFor();
    expect(await theirs.locator(".sender").textContent()).toBe("+14155550193");
    await ui.page.locator(".phone.contact .message.mine", { hasText: "Count me in" }).waitFor();

    ui.page.once("dialog", (dialog) => void dialog.accept("Weekend trip"));
    await ui.page.locator(".phone.contact").getByRole("button", { name: "Rename…" }).click();
    await head.getByText("Weekend trip").waitFor();

    await ui.page.locator(".phone.business").getByRole("button", { name: "Type…" }).click();
    await ui.page.locator(".phone.contact .typing-dots").waitFor();
    await screenshot(ui.page, "group-1280");
  });

  it("hides a contact's typing bubble 60 s later on the sandbox clock (it stayed)", async () => {
    const sent = await sandbox.json("send", "--from", MAIN, "--to", "+14155550194", "--text", "Typing test");
    await openThread(sent.conversation_id);
    const typing = await sandbox.cli("simulate", "typing", "--from", "+14155550194", "--to", MAIN);
    expect(typing.code, typing.stderr).toBe(0);
    const dots = ui.page.locator(".phone.business .typing-dots");
    await dots.waitFor();
    expect((await sandbox.cli("clock", "advance", "61s")).code).toBe(0);
    await dots.waitFor({ state: "detached" });
  });

  it("offers the contact only the moves a message's status allows (Mark delivered and Fail… answered 409 on a delivered one)", async () => {
    const sent = await sandbox.json("send", "--from", MAIN, "--to", "+14155550195", "--text", "Menu test");
    expect((await sandbox.cli("clock", "advance", "1s")).code).toBe(0);
    await openThread(sent.conversation_id);
    const menu = ui.page.locator(".phone.contact details.actions").last();
    await menu.locator("summary").click();
    await menu.getByRole("button", { name: "React love" }).waitFor();
    expect(await menu.getByRole("button", { name: "Mark delivered" }).count()).toBe(0);
    expect(await menu.getByRole("button", { name: "Fail…" }).count()).toBe(0);
  });

  it("logged no page errors", () => {
    expect(browser.errors).toEqual([]);
  });
});
