/**
 * `{{name.path}}` placeholders in a step's strings: `name` is a built-in (`numbers`, `account`,
 * `base_url`, `otp_url`) or a name an earlier step saved its result under; `path` walks into it
 * (`msg.id`, `numbers.0`, `hook.secret`). A string that is one placeholder and nothing else
 * takes the value as it is (a number stays a number); placeholders inside longer text are
 * written into it (objects as JSON).
 */

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/;

/** A placeholder that cannot be filled: the message says which and why. */
class TemplateError extends Error {
  override readonly name = "TemplateError";
}

/** Every placeholder in a value, anywhere inside it: its text and the name it reads. */
export function placeholdersIn(value: unknown): { text: string; name: string }[] {
  if (typeof value === "string")
    return [...value.matchAll(PLACEHOLDER)].map((match) => ({ text: match[0], name: match[1] as string }));
  if (Array.isArray(value)) return value.flatMap(placeholdersIn);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(placeholdersIn);
  return [];
}

/** Text that has `{{` left after the placeholders are taken out: a placeholder written wrong. */
export function malformedPlaceholder(value: string): string | undefined {
  const rest = value.replace(PLACEHOLDER, "");
  const at = rest.indexOf("{{");
  return at === -1 ? undefined : rest.slice(at, at + 40);
}

function lookUp(values: ReadonlyMap<string, unknown>, name: string, path: string, text: string): unknown {
  if (!values.has(name))
    throw new TemplateError(`${text}: nothing is saved as ${name} (known: ${[...values.keys()].join(", ")})`);
  let node = values.get(name);
  let walked = name;
  for (const key of path.split(".").filter(Boolean)) {
    const next = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined;
    if (next === undefined) {
      const fields =
        node !== null && typeof node === "object" ? Object.keys(node as object).join(", ") : JSON.stringify(node);
      throw new TemplateError(`${text}: ${walked} has no ${key} (it has: ${fields || "nothing"})`);
    }
    node = next;
    walked += `.${key}`;
  }
  return node;
}

/** The value with every placeholder filled from `values`; TemplateError names one that cannot be. */
export function fillTemplates<T>(value: T, values: ReadonlyMap<string, unknown>): T {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return lookUp(values, whole[1] as string, whole[2] as string, value) as T;
    return value.replace(PLACEHOLDER, (text, name: string, path: string) => {
      const found = lookUp(values, name, path, text);
      return typeof found === "string" ? found : JSON.stringify(found);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((item) => fillTemplates(item, values)) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTemplates(item, values)])) as T;
  return value;
}
