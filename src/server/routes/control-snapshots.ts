import { Readable } from "node:stream";
import { deletedSnapshot, restoredSnapshot, saveSnapshotBody, snapshotView } from "../../contract/snapshots.js";
import { MAX_SNAPSHOT_BYTES, snapshotNameOf } from "../../domain/control/index.js";
import { AppError } from "../../lib/app-error.js";
import { contentDisposition } from "../../lib/filename.js";
import { parseInput } from "../../lib/validation.js";
import { drainingOnError, requestStream } from "../multipart.js";
import { ok, page, type ApiRequest, type Route } from "../route.js";

const TAG = "Sandbox: snapshots";
const name = { name: "the snapshot's name: 1 to 64 letters, digits, dots, dashes or underscores" };
const badName = { 400: { invalid_request: "a name that is not 1 to 64 letters, digits, dots, dashes or underscores" } };
const nameOf = ({ params }: ApiRequest) => snapshotNameOf(params.name, "name");

/** GET /sandbox/v1/snapshots/:name/export: the snapshot as one file, to keep or to import elsewhere. */
function exportSnapshot(request: ApiRequest): Response {
  const snapshotName = nameOf(request);
  const exported = request.control.snapshots.export(snapshotName);
  const body =
    request.event.req.method === "HEAD"
      ? null
      : (Readable.toWeb(exported.stream()) as unknown as globalThis.ReadableStream);
  return new Response(body, {
    headers: {
      "content-type": "application/octet-stream",
      "content-length": String(exported.sizeBytes),
      "content-disposition": contentDisposition("attachment", `${snapshotName}.msgctl-snapshot`),
      "x-request-id": request.requestId,
    },
  });
}

/** PUT /sandbox/v1/snapshots/:name: an exported snapshot's bytes, kept under that name. */
async function importSnapshot(request: ApiRequest) {
  const { event, control } = request;
  const snapshotName = nameOf(request);
  const declared = Number(request.header("content-length") ?? "0");
  return drainingOnError(event, async () => {
    if (declared > MAX_SNAPSHOT_BYTES) {
      throw new AppError(
        "payload_too_large",
        413,
        `A snapshot may weigh at most ${MAX_SNAPSHOT_BYTES / 1024 ** 3} GiB`,
      );
    }
    return ok(await control.snapshots.import(snapshotName, requestStream(event)), 201);
  });
}

/** Snapshots of the whole sandbox (docs/snapshots.md): save, list, restore, delete, export, import. */
export const controlSnapshotRoutes: Route[] = [
  {
    method: "GET",
    path: "/sandbox/v1/snapshots",
    doc: {
      tag: TAG,
      summary: "List the snapshots",
      description:
        "By name. A database file's snapshots are files in a folder (`<state-dir>/snapshots/` for `msgctl serve`); a `:memory:` sandbox keeps its own in memory until exported.",
      responses: { 200: { description: "every snapshot", schema: snapshotView, list: true } },
    },
    handler: ({ control }) => page(control.snapshots.list(), false),
  },
  {
    method: "POST",
    path: "/sandbox/v1/snapshots",
    requiresBody: { example: '{ "name": "checkout-ready" }' },
    doc: {
      tag: TAG,
      summary: "Save a snapshot",
      description:
        "The whole sandbox as it is: accounts and keys, the world and its faults, messages, conversations, attachments and their bytes, webhooks and their secrets, events, deliveries and pending retries, jobs, idempotency keys and the clock. Attempts on the wire finish first. A snapshot of the same name is replaced only once the new one is complete: a failed save keeps it.",
      body: saveSnapshotBody,
      responses: { 201: { description: "the snapshot saved", schema: snapshotView } },
      errorCodes: { ...badName, 500: { internal_error: "the snapshot could not be written (the disk, say)" } },
    },
    async handler({ control, body }) {
      return ok(await control.snapshots.save(parseInput(saveSnapshotBody, body()).name), 201);
    },
  },
  {
    method: "GET",
    path: "/sandbox/v1/snapshots/:name",
    doc: {
      tag: TAG,
      summary: "Get a snapshot",
      params: name,
      responses: { 200: { description: "the snapshot", schema: snapshotView } },
      errorCodes: badName,
    },
    handler: (request) => ok(request.control.snapshots.get(nameOf(request))),
  },
  {
    method: "DELETE",
    path: "/sandbox/v1/snapshots/:name",
    doc: {
      tag: TAG,
      summary: "Delete a snapshot",
      params: name,
      responses: { 200: { description: "deleted", schema: deletedSnapshot } },
      errorCodes: badName,
    },
    handler: async (request) => ok(await request.control.snapshots.delete(nameOf(request))),
  },
  {
    method: "POST",
    path: "/sandbox/v1/snapshots/:name/restore",
    doc: {
      tag: TAG,
      summary: "Restore a snapshot",
      description:
        "Replaces the whole sandbox at once, every account's state included: nothing made after the save is left. Attempts in flight are abandoned. A manual clock goes back to the snapshot's time; a real clock keeps the wall's, and work that fell due since runs. The activity stream carries a `sandbox.restored` frame (not an event of the service: no webhook gets it).",
      params: name,
      responses: { 200: { description: "restored", schema: restoredSnapshot } },
      errorCodes: {
        400: {
          invalid_request:
            "a bad name, or a snapshot this msgctl cannot restore (written by a newer msgctl: the message names its version)",
        },
      },
    },
    handler: async (request) => ok(await request.control.snapshots.restore(nameOf(request))),
  },
  {
    method: "GET",
    path: "/sandbox/v1/snapshots/:name/export",
    doc: {
      tag: TAG,
      summary: "Export a snapshot",
      description:
        "The snapshot as one file (an SQLite database holding the attachments' bytes too), for `PUT /sandbox/v1/snapshots/:name`, `msgctl snapshot import` or `msgctl serve --restore FILE`, in this msgctl or a newer one.",
      params: name,
      responses: { 200: { description: "the snapshot file", raw: "application/octet-stream" } },
      errorCodes: badName,
    },
    handler: exportSnapshot,
  },
  {
    method: "PUT",
    path: "/sandbox/v1/snapshots/:name",
    doc: {
      tag: TAG,
      summary: "Import a snapshot",
      description:
        "The bytes of an exported snapshot file (any content type), kept under this name; a snapshot of that name is replaced once the file is checked. One written by an older msgctl is brought up to this one's schema; one written by a newer msgctl is refused, naming its version.",
      params: name,
      upload: "bytes",
      responses: { 201: { description: "the snapshot imported", schema: snapshotView } },
      errorCodes: {
        400: {
          invalid_request: "a bad name, a file that is not a msgctl snapshot, or one written by a newer msgctl",
        },
        413: { payload_too_large: "a file over 2 GiB" },
      },
    },
    handler: importSnapshot,
  },
];
