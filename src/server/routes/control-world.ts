import { faultBody } from "../../contract/numbers.js";
import { getContact, getNumberFaults, listContacts, setContact, setNumberFault } from "../../domain/world/index.js";
import { parseInput } from "../../lib/validation.js";
import { ok, page, type Route } from "../route.js";

// `14155550101` without its `+` is accepted in the path: a `+` is easy to lose in a URL.
const numberParam = (raw: string | undefined) => (/^\d+$/.test(raw ?? "") ? `+${raw}` : (raw ?? ""));

/** The simulated world in the control API: contacts and per-number faults (SANDBOX.md section 3). */
export const worldRoutes: Route[] = [
  { method: "GET", path: "/sandbox/v1/contacts", handler: ({ ctx }) => page(listContacts(ctx), false) },
  { method: "GET", path: "/sandbox/v1/contacts/:handle", handler: ({ ctx, params }) => ok(getContact(ctx, params.handle ?? "")) },
  {
    method: "PATCH",
    path: "/sandbox/v1/contacts/:handle",
    handler: async ({ ctx, params, json }) => ok(setContact(ctx, params.handle ?? "", await json())),
  },
  {
    method: "GET",
    path: "/sandbox/v1/numbers/:handle/faults",
    handler: ({ ctx, account, params }) => ok(getNumberFaults(ctx, account.id, numberParam(params.handle))),
  },
  {
    method: "POST",
    path: "/sandbox/v1/numbers/:handle/faults",
    async handler({ ctx, account, params, json }) {
      const body = await json();
      const change = parseInput(faultBody, body ?? {});
      return ok(setNumberFault(ctx, account.id, numberParam(params.handle), change));
    },
  },
];
