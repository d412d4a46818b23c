import {
  BUILT_IN_NAMES,
  STEP_BODIES,
  STEP_KINDS,
  saveNameSchema,
  scenarioHeader,
  type ScenarioStep,
  type StepKind,
} from "../contract/scenario-file.js";
import { plainIssues } from "../lib/validation.js";
import { malformedPlaceholder, placeholdersIn } from "./templates.js";

/** A problem before its file is known: a path in the file and what is wrong there. */
export interface Finding {
  path: (string | number)[];
  message: string;
}

interface Parser {
  safeParse(
    value: unknown,
    options?: { error: typeof plainIssues },
  ): {
    success: boolean;
    data?: unknown;
    error?: { issues: { code?: string; keys?: string[]; path: PropertyKey[]; message: string }[] };
  };
}

/** Parses `value` with a contract schema; the issues become findings under `at`. */
function parse(schema: Parser, value: unknown, at: (string | number)[], findings: Finding[]): unknown {
  const result = schema.safeParse(value, { error: plainIssues });
  if (result.success) return result.data;
  for (const issue of result.error?.issues ?? []) {
    const path = [...at, ...(issue.path as (string | number)[])];
    // One finding per unknown field, at the field itself.
    if (issue.code === "unrecognized_keys")
      for (const key of issue.keys ?? []) findings.push({ path: [...path, key], message: "is not a field here" });
    else findings.push({ path, message: issue.message });
  }
  return undefined;
}

const kindList = STEP_KINDS.join(", ");
// Kinds whose body is one action chosen by its key.
const ONE_OF: Partial<Record<StepKind, string>> = {
  simulate: "simulate action",
  otp: "otp action (create, text or consume)",
  wait: "thing to wait for (message, event or otp)",
};

/** Rules of an expect's fields that depend on each other. */
function expectFindings(body: Record<string, unknown>, at: (string | number)[]): Finding[] {
  const subjects = (["event", "message", "delivery"] as const).filter((key) => body[key] !== undefined);
  if (subjects.length !== 1)
    return [
      {
        path: at,
        message:
          subjects.length === 0
            ? "needs one of event, message or delivery"
            : `checks one thing: ${subjects.join(" and ")} given`,
      },
    ];
  const subject = subjects[0] as (typeof subjects)[number];
  const allowed: Record<typeof subject, string[]> = {
    event: ["event", "match", "delivered", "within"],
    message: ["message", "status", "match", "within"],
    delivery: ["delivery", "status", "attempts", "within"],
  };
  const found: Finding[] = Object.keys(body)
    .filter((key) => !allowed[subject].includes(key))
    .map((key) => ({
      path: [...at, key],
      message: `does not apply to an expect of ${subject === "event" ? "an" : "a"} ${subject}`,
    }));
  const MESSAGE = ["queued", "sent", "delivered", "read", "failed", "unsent"];
  const DELIVERY = ["pending", "succeeded", "failed", "abandoned", "dropped"];
  const status = body.status as string | undefined;
  if (subject === "message" && status === undefined && body.match === undefined)
    found.push({ path: at, message: "an expect of a message needs status or match" });
  if (subject === "message" && status !== undefined && !MESSAGE.includes(status))
    found.push({ path: [...at, "status"], message: `must be a message status: ${MESSAGE.join(", ")}` });
  if (subject === "delivery" && status !== undefined && !DELIVERY.includes(status))
    found.push({ path: [...at, "status"], message: `must be a delivery status: ${DELIVERY.join(", ")}` });
  return found;
}

/** One step checked: its kind and body, or findings. */
function checkStep(raw: unknown, index: number, findings: Finding[]): ScenarioStep | undefined {
  const at = ["steps", index];
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    findings.push({ path: at, message: `must be an object with one step kind (${kindList})` });
    return undefined;
  }
  const step = raw as Record<string, unknown>;
  const kinds = Object.keys(step).filter((key) => key !== "save");
  const known = kinds.filter((key): key is StepKind => (STEP_KINDS as string[]).includes(key));
  const unknown = kinds.filter((key) => !(STEP_KINDS as string[]).includes(key));
  if (unknown.length > 0) {
    findings.push({ path: [...at, unknown[0] as string], message: `is not a step kind (one of ${kindList})` });
    return undefined;
  }
  if (known.length !== 1) {
    findings.push({
      path: at,
      message: known.length === 0 ? `needs a step kind (${kindList})` : `does one thing: ${known.join(" and ")} given`,
    });
    return undefined;
  }
  const kind = known[0] as StepKind;
  const before = findings.length;
  if (step.save !== undefined) parse(saveNameSchema, step.save, [...at, "save"], findings);
  const body = parse(STEP_BODIES[kind] as Parser, step[kind], [...at, kind], findings);
  const oneOf = ONE_OF[kind];
  if (oneOf && body && typeof body === "object") {
    const keys = Object.keys(body).filter((key) => (body as Record<string, unknown>)[key] !== undefined);
    if (keys.length !== 1)
      findings.push({
        path: [...at, kind],
        message: keys.length === 0 ? `needs one ${oneOf}` : `takes one ${oneOf}: ${keys.join(" and ")} given`,
      });
  }
  if (kind === "expect" && body) findings.push(...expectFindings(body as Record<string, unknown>, [...at, kind]));
  if (findings.length > before) return undefined;
  return { kind, body: (body ?? {}) as never, save: step.save as string | undefined };
}

/** Placeholders that read names no earlier step saved, or that are written wrong. */
function placeholderFindings(steps: unknown[]): Finding[] {
  const known = new Set<string>(BUILT_IN_NAMES);
  const found: Finding[] = [];
  steps.forEach((raw, index) => {
    if (raw === null || typeof raw !== "object") return;
    const walk = (value: unknown, path: (string | number)[]) => {
      if (typeof value === "string") {
        const bad = malformedPlaceholder(value);
        if (bad) found.push({ path, message: `has a placeholder written wrong near "${bad}" (use {{name.path}})` });
        for (const { text, name } of placeholdersIn(value))
          if (!known.has(name))
            found.push({
              path,
              message: `${text} reads ${name}, which no earlier step saves (built in: ${BUILT_IN_NAMES.join(", ")}; saved so far: ${[...known].filter((n) => !(BUILT_IN_NAMES as readonly string[]).includes(n)).join(", ") || "none"})`,
            });
      } else if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...path, i]));
      else if (value !== null && typeof value === "object")
        for (const [key, item] of Object.entries(value)) walk(item, [...path, key]);
    };
    for (const [key, value] of Object.entries(raw)) if (key !== "save") walk(value, ["steps", index, key]);
    const save = (raw as { save?: unknown }).save;
    if (typeof save === "string") known.add(save);
  });
  return found;
}

/** Checks a parsed file: its fields, each step, and every placeholder's name. */
export function validateScenario(
  data: unknown,
): { ok: true; name?: string; restore?: string; steps: ScenarioStep[] } | { ok: false; findings: Finding[] } {
  const findings: Finding[] = [];
  const header = parse(scenarioHeader as Parser, data, [], findings) as
    | { name?: string; restore?: string; steps: unknown[] }
    | undefined;
  if (!header) return { ok: false, findings };
  const steps = header.steps.map((raw, index) => checkStep(raw, index, findings));
  findings.push(...placeholderFindings(header.steps));
  if (findings.length > 0) return { ok: false, findings };
  return { ok: true, name: header.name, restore: header.restore, steps: steps as ScenarioStep[] };
}

/** A finding's path as people read it: `steps[2].send.to`. */
export function pathText(path: (string | number)[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === "number" ? `${text}[${key}]` : text ? `${text}.${key}` : key),
    "",
  );
}
