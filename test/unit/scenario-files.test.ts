import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { scenarioJsonSchema } from "../../src/contract/scenario-file.js";
import { fillTemplates, parseScenario, problemText } from "../../src/scenarios/index.js";

const problemsOf = (text: string) => parseScenario(text, "s.yaml").problems.map(problemText);

const EVERY_KIND = `
name: every kind
steps:
  - webhook: { url: "http://127.0.0.1:3000/hooks", secret: "whsec_test_0123456789abcdef", events: [message.read] }
    save: hook
  - send: { to: "+14155550191", from: "{{numbers.0}}", text: "hi" }
    save: msg
  - advance: 5s
  - settle:
  - settle: { timeout: 2s }
  - simulate: { inbound: { from: "+14155550191", to: "{{numbers.0}}", text: "thanks" } }
  - simulate: { fault: { number: "{{numbers.0}}", fault: transient, count: 2 } }
  - otp: { create: { phone: "+14155550191" } }
    save: challenge
  - otp: { text: { id: "{{challenge.id}}", wrong: true } }
  - wait: { otp: { id: "{{challenge.id}}", status: pending, timeout: 1s } }
  - wait: { event: { type: message.read, match: { message_id: "{{msg.id}}" }, delivered: true } }
  - http: { method: POST, url: "http://127.0.0.1:3000/api", json: { a: 1 }, expect_status: 200, expect_json: { ok: true } }
  - expect: { event: message.read, match: { message_id: "{{msg.id}}" }, delivered: true, within: 10s }
  - expect: { message: "{{msg.id}}", status: read }
  - expect: { delivery: { event: message.read, webhook: "{{hook.id}}" }, status: pending, attempts: [{ status_code: 500 }] }
  - chaos: { seed: 42, profile: rough }
  - chaos: off
  - check: { url: "http://127.0.0.1:3000/hooks", secret: "whsec_test_0123456789abcdef" }
`;

describe("scenario files: reading and checking", () => {
  it("a file using every step kind is read, each step with its kind, body and save", () => {
    const { scenario, problems } = parseScenario(EVERY_KIND, "every.yaml");
    expect(problems).toEqual([]);
    expect(scenario?.name).toBe("every kind");
    expect(scenario?.steps.map((step) => step.kind)).toEqual([
      "webhook",
      "send",
      "advance",
      "settle",
      "settle",
      "simulate",
      "simulate",
      "otp",
      "otp",
      "wait",
      "wait",
      "http",
      "expect",
      "expect",
      "expect",
      "chaos",
      "chaos",
      "check",
    ]);
    expect(scenario?.steps.slice(-3)).toEqual([
      { kind: "chaos", body: { seed: 42, profile: "rough" } },
      { kind: "chaos", body: "off" },
      { kind: "check", body: { url: "http://127.0.0.1:3000/hooks", secret: "whsec_test_0123456789abcdef" } },
    ]);
    expect(scenario?.steps[1]).toEqual({
      kind: "send",
      body: { to: "+14155550191", from: "{{numbers.0}}", text: "hi" },
      save: "msg",
    });
  });

  it("JSON is read as well as YAML; a file without a name is named after the file", () => {
    const { scenario } = parseScenario(JSON.stringify({ steps: [{ advance: "1s" }] }), "dir/a.json");
    expect(scenario).toEqual({ file: "dir/a.json", name: "a.json", steps: [{ kind: "advance", body: "1s" }] });
  });

  it("each problem names the step, the field and the line; every problem of the file is listed", () => {
    const text = ["name: bad", "steps:", "  - sned: { to: x }", "  - send: { to: 5, txt: hi }", "  - webhook: {}"].join(
      "\n",
    );
    expect(problemsOf(text)).toEqual([
      "s.yaml:3:11: steps[0].sned: is not a step kind (one of send, simulate, otp, webhook, advance, settle, wait, http, expect, chaos, check)",
      "s.yaml:4:17: steps[1].send.to: must be a string, not a number",
      "s.yaml:4:25: steps[1].send.txt: is not a field here",
      "s.yaml:5:14: steps[2].webhook.url: required",
    ]);
  });

  it("a step does one thing; simulate, otp and wait take one action", () => {
    expect(problemsOf("steps:\n  - { send: { to: a }, advance: 1s }")).toEqual([
      "s.yaml:2:5: steps[0]: does one thing: send and advance given",
    ]);
    expect(problemsOf("steps:\n  - save: x")).toEqual([
      "s.yaml:2:5: steps[0]: needs a step kind (send, simulate, otp, webhook, advance, settle, wait, http, expect, chaos, check)",
    ]);
    expect(problemsOf("steps:\n  - simulate: { read: { id: a }, delivered: { id: a } }")).toEqual([
      "s.yaml:2:15: steps[0].simulate: takes one simulate action: delivered and read given",
    ]);
    expect(problemsOf("steps:\n  - otp: {}")).toEqual([
      "s.yaml:2:10: steps[0].otp: needs one otp action (create, text or consume)",
    ]);
  });

  it("chaos takes { seed, profile } or off; a bad seed or profile is named", () => {
    expect(
      problemsOf('steps:\n  - chaos: { seed: "{{account.name}}" }\n  - chaos: { seed: 7, profile: mild }'),
    ).toEqual([]);
    expect(problemsOf('steps:\n  - chaos: { seed: "" }')).toEqual([
      "s.yaml:2:20: steps[0].chaos.seed: must not be empty",
    ]);
    for (const body of ["on", "{ seed: 1, profile: wild }", "{}", ""])
      expect(problemsOf(`steps:\n  - chaos: ${body}`)).toEqual([
        expect.stringMatching(
          /^s\.yaml:2:\d+: steps\[0\]\.chaos: must be \{ seed, profile \} \(a seed, and mild or rough\) or "off"$/,
        ),
      ]);
    expect(problemsOf("steps:\n  - chaos: { seed: 1, rates: 2 }")).toEqual([
      "s.yaml:2:30: steps[0].chaos.rates: is not a field here",
    ]);
  });

  it("check takes the handler's url and the secret it verifies with (16-200 characters)", () => {
    expect(
      problemsOf('steps:\n  - check: { url: "{{env.APP_URL}}/hooks", secret: "whsec_test_0123456789abcdef" }'),
    ).toEqual([]);
    expect(problemsOf("steps:\n  - check: { url: http://127.0.0.1:3000/hooks }")).toEqual([
      "s.yaml:2:12: steps[0].check.secret: required",
    ]);
    expect(problemsOf("steps:\n  - check: { url: http://127.0.0.1:3000/hooks, secret: short }")).toEqual([
      expect.stringMatching(/^s\.yaml:2:\d+: steps\[0\]\.check\.secret: /),
    ]);
  });

  it("an expect checks one of event, message or delivery, with the fields that apply to it", () => {
    expect(problemsOf("steps:\n  - expect: { within: 1s }")).toEqual([
      "s.yaml:2:13: steps[0].expect: needs one of event, message or delivery",
    ]);
    expect(problemsOf("steps:\n  - expect: { event: message.read, message: m }")).toEqual([
      "s.yaml:2:13: steps[0].expect: checks one thing: event and message given",
    ]);
    expect(problemsOf("steps:\n  - expect: { event: message.read, attempts: 2 }")).toEqual([
      "s.yaml:2:46: steps[0].expect.attempts: does not apply to an expect of an event",
    ]);
    expect(problemsOf("steps:\n  - expect: { message: m, status: succeeded }")).toEqual([
      "s.yaml:2:35: steps[0].expect.status: must be a message status: queued, sent, delivered, read, failed, unsent",
    ]);
    expect(problemsOf("steps:\n  - expect: { message: m }")).toEqual([
      "s.yaml:2:13: steps[0].expect: an expect of a message needs status or match",
    ]);
    expect(problemsOf("steps:\n  - expect: { event: message.read, within: soon }")).toEqual([
      "s.yaml:2:44: steps[0].expect.within: must be a duration such as 500ms, 5s, 10m or 1h30m",
    ]);
  });

  it("a placeholder reads a built-in or a name an earlier step saved; one written wrong is named", () => {
    expect(problemsOf('steps:\n  - send: { to: "{{msg.to}}" }\n  - send: { to: a }\n    save: msg')).toEqual([
      "s.yaml:2:17: steps[0].send.to: {{msg.to}} reads msg, which no earlier step saves (built in: numbers, account, base_url, otp_url, env; saved so far: none)",
    ]);
    expect(problemsOf('steps:\n  - send: { to: "{{ numbers 0 }}" }')).toEqual([
      's.yaml:2:17: steps[0].send.to: has a placeholder written wrong near "{{ numbers 0 }}" (use {{name.path}})',
    ]);
    expect(problemsOf("steps:\n  - advance: 1s\n    save: numbers")).toEqual([
      "s.yaml:3:11: steps[0].save: must not be a built-in name (numbers, account, base_url, otp_url, env)",
    ]);
  });

  it("the environment is built in as env: {{env.APP_URL}}", () => {
    expect(problemsOf('steps:\n  - http: { url: "{{env.APP_URL}}/hooks" }')).toEqual([]);
    expect(fillTemplates("{{env.APP_URL}}/hooks", new Map([["env", { APP_URL: "http://127.0.0.1:5000" }]]))).toBe(
      "http://127.0.0.1:5000/hooks",
    );
  });

  it("text that is not YAML, a key given twice, or a file without steps is refused with its line", () => {
    expect(problemsOf("steps: [")[0]).toMatch(/^s\.yaml:1:\d+: not valid YAML or JSON: /);
    expect(problemsOf("name: a\nname: b\nsteps: [{ advance: 1s }]")[0]).toMatch(
      /^s\.yaml:2:1: not valid YAML or JSON: Map keys must be unique/,
    );
    expect(problemsOf("name: a")).toEqual(["s.yaml:1:1: steps: required"]);
    expect(problemsOf("steps: []")).toEqual(["s.yaml:1:8: steps: must not be empty"]);
    expect(problemsOf("restore: 'a b'\nsteps: [{ advance: 1s }]")).toEqual([
      "s.yaml:1:10: restore: must be a snapshot name ([A-Za-z0-9._-], 1-64 characters) or an exported snapshot's path (./file)",
    ]);
  });
});

describe("scenario files: the documented examples", () => {
  const ROOT = resolve(import.meta.dirname, "../..");
  const blocks = (doc: string) =>
    [...readFileSync(resolve(ROOT, doc), "utf8").matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);

  it("every scenario in docs/scenarios.md and the README is a valid file", () => {
    const found = [...blocks("docs/scenarios.md"), ...blocks("README.md").filter((text) => /^steps:/m.test(text))];
    expect(found.length).toBeGreaterThanOrEqual(13);
    for (const text of found) expect(problemsOf(text), text).toEqual([]);
  });
});

describe("scenario files: the JSON Schema that `msgctl run --schema` prints", () => {
  const validate = new Ajv2020({ strict: false }).compile(scenarioJsonSchema());

  it("accepts a file using every step kind", async () => {
    const { parse } = await import("yaml");
    expect(validate(parse(EVERY_KIND)), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses an unknown step kind, an unknown field and a wrong type, as the runner does", () => {
    expect(validate({ steps: [{ sned: {} }] })).toBe(false);
    expect(validate({ steps: [{ send: { txt: "a" } }] })).toBe(false);
    expect(validate({ steps: [{ advance: 5 }] })).toBe(false);
    expect(validate({ name: "x", steps: [] })).toBe(false);
  });
});
