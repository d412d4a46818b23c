import type { Route } from "../route.js";

// The inspector (a page to watch and drive the sandbox) is its own issue; until it lands, `/`
// tells a person who opens the advertised inspector URL where things are.
const page = (origin: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>msgctl sandbox</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}</style></head>
<body>
<h1>msgctl sandbox</h1>
<p>The messaging API is served here, at <code>${origin}/v1</code>, with the control API under <code>${origin}/sandbox/v1</code>.</p>
<ul>
<li>Watch events live: <code>msgctl webhooks tail</code></li>
<li>Send and play the other side: <code>msgctl send</code>, <code>msgctl simulate inbound</code></li>
<li>Move time: <code>msgctl clock advance 1h</code></li>
</ul>
<p>The inspector page comes in a later version of msgctl.</p>
</body>
</html>
`;

/** GET / on the messaging host: the inspector's place. */
export const inspectorRoutes: Route[] = [
  {
    method: "GET",
    path: "/",
    auth: false,
    doc: { tag: "Sandbox", summary: "The inspector", description: "A web page to watch and drive the sandbox.", responses: { 200: { description: "the page", raw: "text/html" } } },
    handler: ({ event }) =>
      new Response(page(event.url.origin), { headers: { "content-type": "text/html; charset=utf-8", "x-request-id": (event.context as { requestId?: string }).requestId ?? "" } }),
  },
];
