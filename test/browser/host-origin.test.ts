import { createServer, type Server } from "node:http";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM } from "../helpers/browser.js";
import { useServe } from "../helpers/cli.js";

/**
 * Who may talk to the sandbox, seen from a real browser: a domain that resolves to 127.0.0.1
 * (what DNS rebinding gives an attacker's page) gets 403 instead of the inspector and its key; a
 * page on another origin cannot call the API; the inspector works under any allowed name.
 * Chromium's resolver rules stand in for DNS: `rebind.test` and `sandbox.test` go to 127.0.0.1.
 */

const KEY = "sk_test_acme_0000000000000000";

describe.skipIf(!CHROMIUM)("Host and Origin checks in Chromium", () => {
  const sandbox = useServe(["--allowed-hosts", "sandbox.test"]);
  let browser: Browser;
  let foreign: Server;
  let foreignOrigin: string;
  let port: string;

  beforeAll(async () => {
    port = new URL(sandbox.serve.ready.base_url).port;
    browser = await chromium.launch({
      executablePath: CHROMIUM ?? undefined,
      args: ["--no-sandbox", "--host-resolver-rules=MAP rebind.test 127.0.0.1, MAP sandbox.test 127.0.0.1"],
    });
    // Another site on this machine: a page of its own origin that tries to use the sandbox.
    foreign = createServer((_request, response) => {
      response.setHeader("content-type", "text/html");
      response.end("<!doctype html><title>another app</title><p>another app</p>");
    });
    await new Promise<void>((done) => foreign.listen(0, "127.0.0.1", () => done()));
    const address = foreign.address();
    foreignOrigin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => foreign?.close(done));
  });

  it("a page on a rebound domain gets 403 forbidden_host, not the inspector and its key", async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://rebind.test:${port}/`);
    expect(response?.status()).toBe(403);
    const body = await response?.text();
    expect(JSON.parse(body ?? "")).toMatchObject({ error: "forbidden_host" });
    expect(body).not.toContain("sk_test_");
    // From that origin, the API answers 403 too, whatever key the page may hold.
    const status = await page.evaluate(
      async ([key]) => (await fetch("/v1/numbers", { headers: { authorization: `Bearer ${key}` } })).status,
      [KEY],
    );
    expect(status).toBe(403);
    await page.close();
  });

  it("the inspector opened by an allowed name works: live, and its own POSTs are answered", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`http://sandbox.test:${port}/`);
    await page.getByText("live", { exact: true }).waitFor();
    const before = (await sandbox.json("clock")).now as string;
    await page.getByRole("button", { name: "Advance the clock 5s" }).click();
    await expect
      .poll(async () => Date.parse((await sandbox.json("clock")).now) - Date.parse(before), { timeout: 10_000 })
      .toBe(5_000);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a page on another origin cannot read the API with the key: no CORS answer", async () => {
    const page = await browser.newPage();
    await page.goto(`${foreignOrigin}/`);
    const outcome = await page.evaluate(
      ([base, key]) =>
        fetch(`${base}/v1/numbers`, { headers: { authorization: `Bearer ${key}` } }).then(
          () => "read",
          () => "blocked",
        ),
      [sandbox.serve.ready.base_url, KEY],
    );
    expect(outcome).toBe("blocked");
    await page.close();
  });
});
