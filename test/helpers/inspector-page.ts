import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { useBrowser, type BrowserHandle } from "./browser.js";
import { useServe, type ServeHandle } from "./cli.js";
import { startReceiver, type Receiver } from "./webhook-receiver.js";

/** The inspector's page as the browser suites drive it: its sandbox, browser, page and a receiver. */
export interface InspectorPage {
  sandbox: ServeHandle;
  browser: BrowserHandle;
  /** The page at the inspector, opened (and seen live) before the first test. */
  page: Page;
  /** A local webhook receiver for the suite. */
  receiver: Receiver;
  /** A message's bubble on either phone. */
  bubble(id: string, phone?: "business" | "contact"): ReturnType<Page["locator"]>;
  /** Opens a conversation's phones and waits for the business's header. */
  openThread(conversationId: string): Promise<void>;
}

/**
 * A `msgctl serve` on a manual clock, a browser, and one page opened at the inspector for the
 * suite (with a webhook receiver); call inside a describe. Fields are set before the first test.
 */
export function useInspectorPage(): InspectorPage {
  const sandbox = useServe();
  const browser = useBrowser();
  const ui = {
    sandbox,
    browser,
    bubble: (id: string, phone: "business" | "contact" = "business") =>
      ui.page.locator(`.phone.${phone} [data-message-id="${id}"]`),
    openThread: async (conversationId: string) => {
      await ui.page.goto(`${sandbox.serve.ready.inspector_url}#/phones/${conversationId}`);
      await ui.page.locator(".phone.business .phone-head").waitFor();
    },
  } as InspectorPage;

  beforeAll(async () => {
    ui.receiver = await startReceiver();
    ui.page = await browser.open();
    await ui.page.goto(sandbox.serve.ready.inspector_url);
    await ui.page.getByText("live", { exact: true }).waitFor();
  });
  afterAll(async () => {
    await ui.receiver?.close();
  });
  return ui;
}
