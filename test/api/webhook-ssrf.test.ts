import { beforeEach, describe, expect, it } from "vitest";
import { listJobs } from "../../src/store/core/index.js";
import { emitTestEvent } from "../helpers/events.js";
import { useSandbox, type TestSandbox } from "../helpers/sandbox.js";

/** Host names the tests resolve, and what each resolves to right now (no real DNS). */
const dns = new Map<string, string[] | Error>();
const resolveHost = async (host: string) => {
  const answer = dns.get(host) ?? Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  if (answer instanceof Error) throw answer;
  return answer;
};

/** Every POST the engine makes, instead of the network. */
const posted: string[] = [];
const fetchStub: typeof fetch = async (input) => {
  posted.push(String(input));
  return new Response(null, { status: 204 });
};

// Forms that are forbidden in both modes, numeric tricks included.
const FORBIDDEN_URLS = [
  "http://10.0.0.1/",
  "http://167772161/",
  "http://012.0.0.1/",
  "http://0xa.0.0.1/",
  "http://10.1/",
  "http://172.16.0.1/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/",
  "http://[fd00:ec2::254]/",
  "http://[fe80::1]/",
  "http://0.0.0.0/",
  "http://0/",
  "http://[::]/",
  "http://224.0.0.1/",
  "http://100.64.0.1/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::127.0.0.1]/",
  "http://[64:ff9b::a00:1]/",
  "http://metadata.google.internal/",
  "ftp://hooks.example.com/",
];

const LOOPBACK_URLS = [
  "http://127.0.0.1:3000/hook",
  "http://127.9.9.9/",
  "http://localhost:3000/hook",
  "http://[::1]:3000/",
  "http://2130706433/",
  "http://0177.0.0.1/",
  "http://0x7f.0.0.1/",
  "http://127.1/",
];

// Addresses a public name may come to resolve to (DNS rebinding): each drops the delivery.
const FORBIDDEN_ADDRESSES = [
  ["10.0.0.5", "private"],
  ["192.168.0.10", "private"],
  ["169.254.169.254", "cloud metadata"],
  ["fd00:ec2::254", "cloud metadata"],
  ["fe80::1", "link-local"],
  ["0.0.0.0", "unspecified"],
  ["::", "unspecified"],
  ["224.0.0.1", "multicast"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["::ffff:127.0.0.1", "IPv4-mapped"],
  ["fc00::1", "unique-local"],
] as const;

const create = (t: TestSandbox, url: string) => t.api("POST", "/v1/webhooks", { body: { url } });

async function deliveryAfterEmit(t: TestSandbox) {
  emitTestEvent(t.sandbox.ctx);
  await t.advance(0);
  const res = await t.api("GET", "/sandbox/v1/deliveries");
  return res.body.data[0];
}

function resetWorld() {
  dns.clear();
  dns.set("hooks.example.com", ["93.184.216.34"]);
  posted.length = 0;
}

describe("webhook URLs in the default sandbox mode (docs/sandbox.md)", () => {
  const t = useSandbox({ resolveHost, fetch: fetchStub });
  beforeEach(async () => {
    await t.sandbox.control.reset();
    resetWorld();
  });

  describe("at creation", () => {
    it.each(FORBIDDEN_URLS)("POST with %s is 400 invalid_url and creates nothing", async (url) => {
      const res = await create(t, url);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_url");
      expect(res.body.message).toMatch(/^url: /);
      expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);
    });

    it.each(LOOPBACK_URLS)("accepts loopback %s so a local app can receive deliveries", async (url) => {
      const res = await create(t, url);
      expect(res.status).toBe(201);
    });

    it("PATCH checks the URL the same way and changes nothing on 400", async () => {
      const hook = (await create(t, "https://hooks.example.com/a")).body.data;
      const res = await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { url: "http://169.254.169.254/" } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_url");
      expect((await t.api("GET", `/v1/webhooks/${hook.id}`)).body.data.url).toBe("https://hooks.example.com/a");
    });

    it("a URL over 2,048 characters is 400 invalid_url on POST and PATCH; 2,048 is taken", async () => {
      const sized = (length: number) =>
        `https://hooks.example.com/${"x".repeat(length - "https://hooks.example.com/".length)}`;
      expect(sized(2_049)).toHaveLength(2_049);
      const over = await create(t, sized(2_049));
      expect(over.status).toBe(400);
      expect(over.body.error).toBe("invalid_url");
      expect(over.body.message).toBe("url: must be at most 2048 characters");
      expect((await t.api("GET", "/v1/webhooks")).body.data).toEqual([]);

      const hook = (await create(t, sized(2_048))).body.data;
      expect(hook.url).toHaveLength(2_048);
      const patched = await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { url: sized(2_049) } });
      expect(patched.status).toBe(400);
      expect(patched.body.error).toBe("invalid_url");
      expect((await t.api("GET", `/v1/webhooks/${hook.id}`)).body.data.url).toBe(sized(2_048));
    });

    it("a name that resolves to a forbidden address is 400 invalid_url naming it", async () => {
      dns.set("intranet.example.com", ["93.184.216.34", "10.1.2.3"]);
      const res = await create(t, "https://intranet.example.com/hook");
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_url");
      expect(res.body.message).toContain("intranet.example.com resolves to 10.1.2.3 is a private address");
    });

    it("a name that does not resolve (yet) is accepted: each delivery resolves it again", async () => {
      const res = await create(t, "https://not-yet.example.com/hook");
      expect(res.status).toBe(201);
    });
  });

  describe("at delivery: the host is resolved again", () => {
    it.each(FORBIDDEN_ADDRESSES)(
      "a name now resolving to %s (%s) drops the delivery without posting or retrying",
      async (address, words) => {
        await create(t, "https://hooks.example.com/hook");
        dns.set("hooks.example.com", [address]);
        const delivery = await deliveryAfterEmit(t);
        expect(posted).toEqual([]);
        expect(delivery.status).toBe("dropped");
        expect(delivery.next_attempt_at).toBeNull();
        expect(delivery.attempts).toHaveLength(1);
        expect(delivery.attempts[0].status_code).toBeNull();
        expect(delivery.attempts[0].error).toContain("dropped: hooks.example.com resolves to");
        expect(delivery.attempts[0].error).toContain(words);
        expect(listJobs(t.sandbox.db).filter((job) => job.kind === "webhook.attempt")).toEqual([]);
        await t.advance(48 * 3_600_000);
        expect(posted).toEqual([]);
      },
    );

    it("one forbidden address among several is enough to drop", async () => {
      await create(t, "https://hooks.example.com/hook");
      dns.set("hooks.example.com", ["93.184.216.34", "10.0.0.1"]);
      expect((await deliveryAfterEmit(t)).status).toBe("dropped");
    });

    it("a public address is delivered; a loopback one too in the default mode", async () => {
      await create(t, "https://hooks.example.com/hook");
      expect((await deliveryAfterEmit(t)).status).toBe("succeeded");
      dns.set("hooks.example.com", ["127.0.0.1"]);
      expect((await deliveryAfterEmit(t)).status).toBe("succeeded");
      expect(posted).toEqual(["https://hooks.example.com/hook", "https://hooks.example.com/hook"]);
    });

    it("a name that stops resolving is a failed attempt, retried on the ladder", async () => {
      await create(t, "https://hooks.example.com/hook");
      dns.delete("hooks.example.com");
      const delivery = await deliveryAfterEmit(t);
      expect(delivery.status).toBe("pending");
      expect(delivery.attempts[0].error).toBe("cannot resolve hooks.example.com (ENOTFOUND)");
      dns.set("hooks.example.com", ["93.184.216.34"]);
      await t.advance(5_000);
      const res = await t.api("GET", `/sandbox/v1/deliveries/${delivery.id}`);
      expect(res.body.data.status).toBe("succeeded");
      expect(res.body.data.attempts.map((a: { n: number }) => a.n)).toEqual([1, 2]);
    });

    it("a URL changed by PATCH is the one resolved and posted to", async () => {
      const hook = (await create(t, "https://hooks.example.com/hook")).body.data;
      dns.set("other.example.com", ["93.184.216.35"]);
      await t.api("PATCH", `/v1/webhooks/${hook.id}`, { body: { url: "https://other.example.com/new" } });
      expect((await deliveryAfterEmit(t)).status).toBe("succeeded");
      expect(posted).toEqual(["https://other.example.com/new"]);
    });
  });
});

describe("webhook URLs with --strict-urls (spec 4.4 to the letter)", () => {
  const t = useSandbox({ resolveHost, fetch: fetchStub, settings: { strictUrls: true } });
  beforeEach(async () => {
    await t.sandbox.control.reset();
    resetWorld();
  });

  it.each([...LOOPBACK_URLS, ...FORBIDDEN_URLS])("POST with %s is 400 invalid_url", async (url) => {
    const res = await create(t, url);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_url");
  });

  it("a public name that comes to resolve to loopback drops the delivery", async () => {
    expect((await create(t, "https://hooks.example.com/hook")).status).toBe(201);
    dns.set("hooks.example.com", ["127.0.0.1"]);
    const delivery = await deliveryAfterEmit(t);
    expect(delivery.status).toBe("dropped");
    expect(delivery.attempts[0].error).toContain("loopback");
    expect(posted).toEqual([]);
  });
});

describe("a resolver that never answers", () => {
  const t = useSandbox({
    resolveHost: () => new Promise<string[]>(() => {}),
    fetch: fetchStub,
    settings: { webhookTimeoutMs: 200 },
  });

  it("is accepted at creation and fails the attempt after the acknowledgement window, to be retried", async () => {
    posted.length = 0;
    expect((await create(t, "https://stalled.example.com/hook")).status).toBe(201);
    const delivery = await deliveryAfterEmit(t);
    expect(delivery.status).toBe("pending");
    expect(delivery.attempts[0].error).toBe("cannot resolve stalled.example.com (no answer within 200 ms)");
    expect(posted).toEqual([]);
  });
});
