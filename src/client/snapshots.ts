import type { DeletedSnapshot, RestoredSnapshot, SnapshotView } from "../contract/index.js";
import type { HttpClient } from "./http.js";

const path = (name: string) => `/sandbox/v1/snapshots/${encodeURIComponent(name)}`;

/** Snapshots of the whole sandbox (docs/snapshots.md): /sandbox/v1/snapshots on the messaging host. */
export function snapshotsClient(http: HttpClient) {
  return {
    /** Every snapshot, by name. */
    list: async () => (await http.request<SnapshotView[]>("messaging", "GET", "/sandbox/v1/snapshots")).data,
    /** One snapshot; ApiError `not_found` for an unknown name. */
    get: async (name: string) => (await http.request<SnapshotView>("messaging", "GET", path(name))).data,
    /** Saves the whole sandbox under `name`, replacing a snapshot of that name. */
    save: async (name: string) =>
      (await http.request<SnapshotView>("messaging", "POST", "/sandbox/v1/snapshots", { body: { name } })).data,
    /** Replaces the whole sandbox by the snapshot `name`. */
    restore: async (name: string) =>
      (await http.request<RestoredSnapshot>("messaging", "POST", `${path(name)}/restore`)).data,
    delete: async (name: string) => (await http.request<DeletedSnapshot>("messaging", "DELETE", path(name))).data,
    /** The snapshot as one file: the response, to stream its body; ApiError when refused. */
    export: async (name: string, options: { signal?: AbortSignal } = {}) =>
      http.ensureOk(await http.raw("messaging", "GET", `${path(name)}/export`, { signal: options.signal })),
    /** Keeps an exported snapshot file (its bytes, or a stream of them) under `name`. */
    import: async (name: string, data: Blob | Uint8Array | ReadableStream<Uint8Array>) =>
      (
        await http.request<SnapshotView>("messaging", "PUT", path(name), {
          body: data,
          headers: { "content-type": "application/octet-stream" },
        })
      ).data,
  };
}
