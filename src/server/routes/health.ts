import { ok, type Route } from "../route.js";

/** GET /healthz: 200 once the sandbox is ready (SANDBOX.md section 1). */
export const healthRoutes: Route[] = [
  { method: "GET", path: "/healthz", auth: false, handler: () => ok({ status: "ok" }) },
];
