import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

/** Where screenshots go: test artifacts, ignored by git. */
export const SCREENSHOTS = resolve(import.meta.dirname, "../../test-artifacts/screenshots");

/** MSGCTL_CHROMIUM (which must exist), else Debian's Chromium (TOOLCHAIN.md); null when there is none. */
function findChromium(): string | null {
  const named = process.env.MSGCTL_CHROMIUM;
  if (named) return existsSync(named) ? named : null;
  for (const candidate of ["/usr/bin/chromium", "/usr/bin/chromium-browser"])
    if (existsSync(candidate)) return candidate;
  try {
    return (
      execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim() ||
      null
    );
  } catch {
    return null;
  }
}

/** The browser for this run, or null: then the browser tests skip (the global setup says so, once). */
export const CHROMIUM = findChromium();

/** The one line a run without Chromium prints. */
export const NO_CHROMIUM =
  "Browser tests skipped: no Chromium found (apt-get install -y chromium, or set MSGCTL_CHROMIUM=/path/to/chromium).";

/** A headless Chromium for a test file (launched before its tests, closed after). */
export interface BrowserHandle {
  browser: Browser;
  /** A new page of this size and colour scheme; console errors and page errors fail `errors`. */
  open(options?: { width?: number; height?: number; dark?: boolean }): Promise<Page>;
  /** Errors the pages logged (uncaught exceptions, console errors). */
  errors: string[];
}

/**
 * One Chromium per test worker, launched by the first file that asks and shared by the files after
 * it (they share the worker's modules: `isolate: false`): a launch costs a second or more, and each
 * page gets a context of its own, so nothing of one file's pages reaches another's. Playwright
 * kills the browser when the worker exits.
 */
let shared: Promise<Browser> | undefined;
function sharedBrowser(): Promise<Browser> {
  shared ??= chromium
    // Root needs --no-sandbox (TOOLCHAIN.md).
    .launch({ executablePath: CHROMIUM ?? undefined, args: ["--no-sandbox"] })
    .then((browser) => {
      browser.on("disconnected", () => {
        shared = undefined;
      });
      return browser;
    });
  return shared;
}

/** Chromium with playwright-core for the tests of a describe block; the pages it opened are closed after them. */
export function useBrowser(): BrowserHandle {
  const handle = { errors: [] as string[] } as BrowserHandle;
  const opened: Page[] = [];
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    handle.browser = await sharedBrowser();
    handle.open = async ({ width = 1280, height = 800, dark = false } = {}) => {
      const page = await handle.browser.newPage({ viewport: { width, height }, colorScheme: dark ? "dark" : "light" });
      opened.push(page);
      page.on("pageerror", (error) => handle.errors.push(`page error: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") handle.errors.push(`console: ${message.text()}`);
      });
      return page;
    };
  }, 60_000);
  afterAll(async () => {
    // newPage made each page its own context: closing the context closes the page.
    await Promise.all(
      opened.splice(0).map((page) =>
        page
          .context()
          .close()
          .catch(() => undefined),
      ),
    );
  });
  return handle;
}

/** Saves a screenshot of the page under test-artifacts/screenshots. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}
