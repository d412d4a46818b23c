/**
 * Attachments (spec 2, 4.2, 4.3): uploads streamed to the blob store,
 * presigned PUTs, signed downloads, claims by sends and inbound messages, and the channel caps
 * with the transcoding that makes media fit.
 */
import type { DomainModule } from "../core/index.js";
import { TRANSCODE_JOB } from "./media-caps.js";
import { runTranscode } from "./transcode-job.js";

export { attachInbound, claimAttachments, listMessageAttachments } from "./claims.js";
export { copyAttachments } from "./copies.js";
export { getAttachment, openDownload } from "./downloads.js";
export { capVerdict, prepareMessageMedia, type MediaTerms } from "./media-caps.js";
export {
  MAX_FILES_PER_UPLOAD,
  presignUpload,
  receivePresignedUpload,
  uploadAttachments,
  type UploadPart,
} from "./uploads.js";

/** What attachments plug in: the transcoding that runs before a send attempt goes on. */
export const attachmentsModule: DomainModule = {
  name: "attachments",
  jobs: { [TRANSCODE_JOB]: runTranscode },
};
