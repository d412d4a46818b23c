import { openApiDocument, type HostName } from "../openapi.js";
import type { Route } from "../route.js";

/**
 * GET /openapi.json on a host: that host's OpenAPI document, no key
 * needed, with the host's own address as its server. `routes` is read when first asked.
 */
export function openApiRoute(host: HostName, routes: () => readonly Route[], version: string): Route {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return {
    method: "GET",
    path: "/openapi.json",
    auth: false,
    doc: {
      tag: "Sandbox",
      summary: "This host's OpenAPI document",
      description: "OpenAPI 3.1, generated from the same schemas that validate requests and shape answers.",
      responses: { 200: { description: "the document", raw: "application/json" } },
    },
    handler({ event }) {
      document ??= openApiDocument(host, routes(), { version });
      const body = JSON.stringify({ ...document, servers: [{ url: event.url.origin }] });
      return new Response(body, {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "x-request-id": (event.context as { requestId?: string }).requestId ?? "",
        },
      });
    },
  };
}
