// Request rules for uploads and attachment references, shared by the Worker's routes and the web client.
import { z } from "./zod";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_SUBMISSION } from "./files";

const filename = z.string().trim().min(1, "File name is required").max(255, "File name must be at most 255 characters");
const mimeType = z.string().trim().max(255, "File type must be at most 255 characters");

/** `POST /api/objects/upload`: everything optional, the PUT tells the truth about size and type. */
export const uploadRequestSchema = z.object({
  filename: filename.optional(),
  contentType: mimeType.optional(),
  size: z.number().int("size must be a whole number of bytes").min(0, "size must not be negative").optional(),
});

/** A reference to one of the sender's finished uploads: `url` is the objectPath (or the uploadURL) it was given. */
export const attachmentRefSchema = z.object({
  url: z.string().trim().min(1, "Attachment url is required").max(2000, "Attachment url is too long"),
  filename,
  fileSize: z.number().int().min(0).max(MAX_ATTACHMENT_BYTES, "File exceeds 50MB limit"),
  mimeType: mimeType.default("application/octet-stream"),
});

export const submissionAttachmentsSchema = z
  .array(attachmentRefSchema)
  .max(MAX_ATTACHMENTS_PER_SUBMISSION, `At most ${MAX_ATTACHMENTS_PER_SUBMISSION} files per submission`)
  .default([]);
