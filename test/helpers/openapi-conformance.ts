import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * Checks real answers of the API suites against the host's own OpenAPI document: the status must
 * be one the operation declares, and a JSON body must match that status's schema. Every API suite
 * records what it got (test/helpers/sandbox.ts), so every test is also a conformance test.
 */

/** One answer an API suite got. */
export interface RecordedAnswer {
  method: string;
  /** The path without the query. */
  path: string;
  status: number;
  contentType: string | null;
  body: unknown;
}

interface Operation {
  template: string;
  pattern: RegExp;
  method: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** A checker for one host's document. */
export function conformanceChecker(document: Record<string, any>): (answer: RecordedAnswer) => string | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "doc", components: document.components }, "doc");
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    for (const [method, op] of Object.entries(methods))
      operations.push({ template, pattern, method: method.toUpperCase(), responses: op.responses });
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (key: string, schema: unknown) => {
    let fn = compiled.get(key);
    if (!fn) {
      // Refs point at the document's components, registered above under the id "doc".
      fn = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      compiled.set(key, fn);
    }
    return fn;
  };

  return (answer) => {
    // Only documented operations: unknown paths (404) and other methods (405) have no entry.
    const op = operations.find((o) => o.method === answer.method && o.pattern.test(answer.path));
    if (!op) return undefined;
    const where = `${answer.method} ${op.template} → ${answer.status}`;
    const declared = op.responses[String(answer.status)];
    if (!declared) return `${where}: status not in the document (declared: ${Object.keys(op.responses).join(", ")})`;
    // A HEAD answer carries the GET's headers and no body: there is nothing to validate.
    if (answer.method === "HEAD") return undefined;
    const mediaType = answer.contentType?.split(";")[0]?.trim() ?? "";
    // A media range (`*/*`, `text/*`) covers every type it names, as OpenAPI says.
    const content =
      declared.content?.[mediaType] ?? declared.content?.[`${mediaType.split("/")[0]}/*`] ?? declared.content?.["*/*"];
    if (!content)
      return `${where}: content type ${mediaType || "(none)"} not declared (${Object.keys(declared.content ?? {}).join(", ")})`;
    if (mediaType !== "application/json" || !content.schema) return undefined;
    const validate = validator(`${op.method} ${op.template} ${answer.status}`, content.schema);
    if (validate(answer.body)) return undefined;
    return `${where}: ${ajv.errorsText(validate.errors)}; body ${String(JSON.stringify(answer.body)).slice(0, 300)}`;
  };
}
