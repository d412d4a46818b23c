import type { AttachmentResource, PresignInput, PresignResult } from "../contract/types.js";
import type { HttpClient } from "./http.js";
import { formDataOf, multipartBody, type UploadProgress, type UploadSource } from "./multipart-body.js";

export type { UploadProgress, UploadSource };

/** Attachments (spec 4.2): uploads, presigned PUTs, reads and downloads through signed URLs. */
export function attachmentsClient(http: HttpClient) {
  return {
    /**
     * POST /v1/attachments: up to 10 files. With `onProgress` the body is streamed and every chunk
     * reported (Node); without, it is FormData, which a browser sends too.
     */
    async upload(
      files: UploadSource[],
      options: { onProgress?: UploadProgress; signal?: AbortSignal } = {},
    ): Promise<AttachmentResource[]> {
      const streamed = options.onProgress ? multipartBody(files, options.onProgress) : undefined;
      const response = await http.request<AttachmentResource[]>("messaging", "POST", "/v1/attachments", {
        body: streamed?.body ?? formDataOf(files),
        headers: streamed ? { "content-type": streamed.contentType } : {},
        signal: options.signal,
      });
      return response.data;
    },
    /** POST /v1/attachments/presign: an upload URL to PUT the bytes to, without the key. */
    presign: async (input: PresignInput) =>
      (await http.request<PresignResult>("messaging", "POST", "/v1/attachments/presign", { body: input })).data,
    /** PUTs bytes to a presigned URL with its headers (no key); answers the uploaded attachment. */
    async put(
      presigned: Pick<PresignResult, "upload_url" | "headers">,
      data: Blob | Uint8Array,
    ): Promise<AttachmentResource> {
      const response = await http.ensureOk(
        await http.fetchUrl(presigned.upload_url, {
          method: "PUT",
          headers: presigned.headers,
          body: data as BodyInit,
        }),
      );
      return ((await response.json()) as { data: AttachmentResource }).data;
    },
    /** GET /v1/attachments/:id, with a fresh signed url. */
    get: async (id: string) =>
      (await http.request<AttachmentResource>("messaging", "GET", `/v1/attachments/${encodeURIComponent(id)}`)).data,
    /** Fetches an attachment's bytes through its signed url (no key); ApiError when refused. */
    download: async (
      attachment: Pick<AttachmentResource, "url">,
      options: { signal?: AbortSignal; range?: string } = {},
    ) =>
      http.ensureOk(
        await http.fetchUrl(attachment.url, {
          headers: options.range ? { range: options.range } : {},
          signal: options.signal,
        }),
      ),
  };
}
