import { healthResult } from "../../contract/control.js";
import { ok, type Route } from "../route.js";

/** GET /healthz: 200 once the sandbox is ready. */
export const healthRoutes: Route[] = [
  {
    method: "GET",
    path: "/healthz",
    auth: false,
    // It reveals nothing, so container health checks may call it by service name.
    anyHost: true,
    doc: {
      tag: "Sandbox",
      summary: "Readiness",
      description:
        "200 once the sandbox is ready (for CI readiness checks); no key needed, and any Host header is answered.",
      responses: { 200: { description: "ready", schema: healthResult } },
    },
    handler: () => ok({ status: "ok" as const }),
  },
];
