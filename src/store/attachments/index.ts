/** The attachments' rows (metadata, claims, delivered copies) and the blob store of their bytes. */
export {
  claimAttachment,
  completeUpload,
  findAccountAttachment,
  findAccountAttachments,
  findAttachmentById,
  insertAttachments,
  listBlobHashes,
  listAttachmentsOfMessage,
  updateAttachment,
  type AttachmentRow,
} from "./attachments.js";
export { createMemoryBlobStore, openBlobStore, type BlobStore, type StagedBlob } from "./blob-store.js";
export type { AttachmentsTable, AttachmentTables } from "./tables.js";
