// Delivery files and chat files (SPEC.md §5 Attachments, §9): the limit and the shapes both sides read.
// No zod here, so the file picker stays light; the request schemas are in file-schemas.ts.

/** 50 MB: the most one file may weigh (SPEC.md §9), enforced by the picker and by the upload URL. */
export const MAX_ATTACHMENT_BYTES = 52_428_800;

/** How long an upload URL stays usable. */
export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;

/** At most this many files per work submission. */
export const MAX_ATTACHMENTS_PER_SUBMISSION = 20;

export const FILE_TOO_LARGE_TITLE = "File too large";
export const fileTooLargeText = (filename: string) => `${filename} exceeds 50MB limit`;

/** A file linked to a gig, as the gig events and chat messages list it (SPEC.md §3 Attachment). */
export interface AttachmentView {
  id: string;
  /** `/api/attachments/{id}/download`: parties and the admin only. */
  url: string;
  filename: string;
  /** Bytes. */
  fileSize: number;
  mimeType: string;
}

/** What `POST /api/objects/upload` answers. */
export interface UploadTicket {
  /** One-time `PUT` target on this Worker. */
  uploadURL: string;
  /** Names the object once uploaded; quote it as an attachment's `url`. */
  objectPath: string;
  expiresAt: string;
}

/** A finished upload, quoted when submitting work or sending a chat file. */
export interface AttachmentRef {
  url: string;
  filename: string;
  fileSize: number;
  mimeType: string;
}

export const attachmentDownloadPath = (id: string) => `/api/attachments/${id}/download`;
