import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultSettings } from "../../src/domain/core/index.js";
import { postWebhook } from "../../src/domain/webhooks/index.js";

/** A fetch that never answers until its signal aborts. */
function hangingFetch(): { fetch: typeof fetch; aborted: () => boolean } {
  let aborted = false;
  const fetchFn = ((_url: string, init: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener("abort", () => {
        aborted = true;
        reject(new DOMException("aborted", "AbortError"));
      });
    })) as unknown as typeof fetch;
  return { fetch: fetchFn, aborted: () => aborted };
}

const post = (fetchFn: typeof fetch, timeoutMs: number, signal = new AbortController().signal) =>
  postWebhook(fetchFn, { url: "http://127.0.0.1:1/", body: "{}", headers: {}, timeoutMs, signal });

describe("the acknowledgement window (spec section 6 delivery rule 1)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is 10 000 ms of real time by default", async () => {
    expect(defaultSettings.webhookTimeoutMs).toBe(10_000);
    vi.useFakeTimers();
    const receiver = hangingFetch();
    let outcome: Awaited<ReturnType<typeof postWebhook>> | undefined;
    void post(receiver.fetch, defaultSettings.webhookTimeoutMs).then((result) => (outcome = result));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(receiver.aborted()).toBe(false);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(receiver.aborted()).toBe(true);
    expect(outcome).toEqual({
      acknowledged: false,
      statusCode: null,
      error: "no response within 10000 ms",
      aborted: false,
    });
  });

  it("any 2xx acknowledges; other statuses do not; redirects are not followed", async () => {
    const seen: RequestInit[] = [];
    const answer = (status: number, headers?: Record<string, string>) =>
      (async (_url: string, init: RequestInit) => {
        seen.push(init);
        return new Response(null, { status, headers });
      }) as unknown as typeof fetch;
    expect((await post(answer(200), 1_000)).acknowledged).toBe(true);
    expect((await post(answer(299), 1_000)).acknowledged).toBe(true);
    expect(await post(answer(404), 1_000)).toMatchObject({
      acknowledged: false,
      statusCode: 404,
      error: "receiver answered 404",
    });
    expect(await post(answer(301, { location: "https://x.example/" }), 1_000)).toMatchObject({
      acknowledged: false,
      statusCode: 301,
      error: "redirect to https://x.example/ not followed",
    });
    expect(seen.every((init) => init.redirect === "manual" && init.method === "POST")).toBe(true);
  });

  it("a 4xx answer's first non-blank line goes into the error, control characters out", async () => {
    const refuse = (body: string) => (async () => new Response(body, { status: 403 })) as unknown as typeof fetch;
    expect((await post(refuse("\u001b[31mbad\tsignature\u001b[0m\nmore"), 1_000)).error).toBe(
      "receiver answered 403: [31mbad signature [0m",
    );
    expect((await post(refuse("\r\n\r\n second line first\nthird"), 1_000)).error).toBe(
      "receiver answered 403: second line first",
    );
    expect((await post(refuse(""), 1_000)).error).toBe("receiver answered 403");
  });

  it("a stop or reset aborts the request and reports it as aborted, not as a failure", async () => {
    const receiver = hangingFetch();
    const stop = new AbortController();
    const pending = post(receiver.fetch, 10_000, stop.signal);
    stop.abort();
    expect(await pending).toMatchObject({ aborted: true });
  });
});
