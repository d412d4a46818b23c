import { notFound } from "../../lib/app-error.js";
import { isLoopbackPeer } from "../host-guard.js";
import { createInspectorFiles, type InspectorFile } from "../inspector-files.js";
import type { ApiRequest, Route } from "../route.js";

const files = createInspectorFiles();

// The page talks to its own origin only; images and audio come from signed attachment URLs,
// which name the base URL the sandbox advertises (maybe 127.0.0.1 while the page is on localhost).
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "img-src 'self' http: https: data: blob:",
  "media-src 'self' http: https: blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const requestIdOf = (request: ApiRequest) => (request.event.context as { requestId?: string }).requestId ?? "";

/** The answer for one built file, gzipped when the client takes it. */
function serveFile(request: ApiRequest, file: InspectorFile): Response {
  const gzip = /\bgzip\b/.test(request.header("accept-encoding") ?? "");
  const headers: Record<string, string> = {
    "content-type": file.contentType,
    // Named by their content hash: a new build has new names.
    "cache-control": "public, max-age=31536000, immutable",
    vary: "accept-encoding",
    "x-content-type-options": "nosniff",
    "x-request-id": requestIdOf(request),
  };
  if (gzip) headers["content-encoding"] = "gzip";
  return new Response(new Uint8Array(gzip ? file.gzipped() : file.body), { headers });
}

/**
 * The page, with what it needs to start: a messaging key this sandbox may show (the first
 * account's that is), from which it lists every account through the control API. Without one
 * the page asks for a key. A key is embedded only for a browser on this machine (a loopback
 * peer): one on the network, where `--host` exposed the sandbox, is asked for it.
 */
function page(request: ApiRequest): Response {
  const file = files("index.html");
  if (!file) return placeholder(request);
  const key = isLoopbackPeer(request.event)
    ? (request.control.accounts().find((account) => account.api_key)?.api_key ?? null)
    : null;
  // `<` escaped: the JSON sits inside a script element.
  const config = JSON.stringify({ key }).replaceAll("<", "\\u003c");
  const html = file.body.toString("utf8").replace("%CONFIG%", config);
  // Built per request (it carries a key): never stored by a cache.
  return new Response(html, {
    headers: {
      "content-type": file.contentType,
      "cache-control": "no-store",
      "content-security-policy": CONTENT_SECURITY_POLICY,
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "x-request-id": requestIdOf(request),
    },
  });
}

/** What `/` says when the page was not built (a source checkout before `npm run build`). */
function placeholder(request: ApiRequest): Response {
  const origin = request.event.url.origin;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>msgctl sandbox</title></head>
<body><h1>msgctl sandbox</h1><p>The inspector page is not built here: run <code>npm run build</code>.</p>
<p>The messaging API is served at <code>${origin}/v1</code>, the control API under <code>${origin}/sandbox/v1</code>.</p></body></html>\n`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestIdOf(request),
    },
  });
}

/** GET / on the messaging host: the inspector (docs/inspector.md), and its script and style. */
export const inspectorRoutes: Route[] = [
  {
    method: "GET",
    path: "/",
    auth: false,
    doc: {
      tag: "Sandbox",
      summary: "The inspector",
      description: "A web page to watch and drive the sandbox (docs/inspector.md).",
      responses: { 200: { description: "the page", raw: "text/html" } },
    },
    handler: page,
  },
  {
    method: "GET",
    path: "/inspector/:file",
    auth: false,
    doc: {
      tag: "Sandbox",
      summary: "The inspector's script and style",
      description: "Named by their content hash, so cached for a year (immutable).",
      params: { file: "a file name from the page, e.g. app-3KJ2F9QX.js" },
      responses: { 200: { description: "the file", raw: "*/*" } },
      errorCodes: { 404: { not_found: "no inspector file of that name (an older build's name, say)" } },
    },
    handler(request) {
      const name = request.params.file ?? "";
      const file = name === "index.html" ? undefined : files(name);
      if (!file) throw notFound(`The inspector file ${name.slice(0, 100)}`);
      return serveFile(request, file);
    },
  },
];
