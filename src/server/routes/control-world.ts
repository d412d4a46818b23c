import { faultBody, numberFaults } from "../../contract/numbers.js";
import { contactChanges, contactView } from "../../contract/world.js";
import { getContact, getNumberFaults, listContacts, setContact, setNumberFault } from "../../domain/world/index.js";
import { parseInput } from "../../lib/validation.js";
import { ok, page, type Route } from "../route.js";

// `14155550101` without its `+` is accepted in the path: a `+` is easy to lose in a URL.
const numberParam = (raw: string | undefined) => (/^\d+$/.test(raw ?? "") ? `+${raw}` : (raw ?? ""));

const TAG = "Sandbox: simulated world";
const handle = { handle: "an E.164 number (URL-encoded) or iMessage email" };
const number = { handle: "one of the account's numbers, E.164 (the + may be left out)" };

/** The simulated world in the control API: contacts and per-number faults. */
export const controlWorldRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/contacts",
    doc: {
      tag: TAG,
      summary: "List contacts",
      description: "Contacts on record, then the magic numbers.",
      responses: { 200: { description: "the contacts", schema: contactView, list: true } },
    },
    handler: ({ ctx }) => page(listContacts(ctx), false),
  },
  {
    method: "GET",
    path: "/sandbox/v1/contacts/:handle",
    doc: {
      tag: TAG,
      summary: "Get a contact's profile",
      description: "On record, magic, or the default profile; a handle that is not a phone number or email is 400.",
      params: handle,
      responses: { 200: { description: "the profile routing uses", schema: contactView } },
      errors: [400],
    },
    handler: ({ ctx, params }) => ok(getContact(ctx, params.handle ?? "")),
  },
  {
    method: "PATCH",
    path: "/sandbox/v1/contacts/:handle",
    doc: {
      tag: TAG,
      summary: "Set a contact's profile",
      description: "Only the traits sent; switching to Android turns iMessage off unless imessage is sent too.",
      params: handle,
      body: contactChanges,
      bodyOptional: true,
      responses: { 200: { description: "the profile", schema: contactView } },
    },
    handler: async ({ ctx, params, json }) => ok(setContact(ctx, params.handle ?? "", await json())),
  },
  {
    method: "GET",
    path: "/sandbox/v1/numbers/:handle/faults",
    doc: {
      tag: TAG,
      summary: "A number's faults",
      params: number,
      responses: { 200: { description: "the faults", schema: numberFaults } },
    },
    handler: ({ ctx, account, params }) => ok(getNumberFaults(ctx, account.id, numberParam(params.handle))),
  },
  {
    method: "POST",
    path: "/sandbox/v1/numbers/:handle/faults",
    requiresBody: { example: '{ "fault": "offline" }' },
    doc: {
      tag: TAG,
      summary: "Switch a number's fault",
      description:
        "offline, online, transient (count), rate-limited, relink-required; `off` clears it (docs/simulated-world.md).",
      params: number,
      body: faultBody,
      responses: { 200: { description: "the faults now", schema: numberFaults } },
    },
    handler({ ctx, account, params, body }) {
      const change = parseInput(faultBody, body());
      return ok(setNumberFault(ctx, account.id, numberParam(params.handle), change));
    },
  },
];
