// Files (DESIGN.md §7): one-time upload URLs that stream into R2, attachments that link a member's
// finished upload to a gig (work deliveries, chat files), and downloads for the gig's parties only.
import { and, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import {
  attachmentDownloadPath,
  MAX_ATTACHMENT_BYTES,
  UPLOAD_URL_TTL_MS,
  type AttachmentRef,
  type AttachmentView,
  type UploadTicket,
} from "../../domain/files";
import type { Db, UserRow } from "../db/client";
import type { AtomicChange, Guard } from "../db/atomic";
import { nowIso } from "../db/client";
import { attachments, uploads } from "../db/schema";
import { AppError, badRequest, conflict, forbidden, notFound, tooLarge } from "../errors";
import { randomHex, sha256Hex } from "../auth/tokens";
import { gigHistoryForParty } from "./gig-access";
import type { Viewer } from "./gig-views";
import type { Deps } from "./deps";

/** `uploadURL` is `${UPLOAD_URL_PATH}<token>`; the object is then named `${OBJECT_PATH_PREFIX}<upload id>`. */
export const UPLOAD_URL_PATH = "/api/objects/upload/";
export const OBJECT_PATH_PREFIX = "/objects/uploads/";

const FILE_TOO_LARGE = "File exceeds 50MB limit";

export type UploadRow = typeof uploads.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;

// ---- Upload URLs ------------------------------------------------------------------------------

/** A one-time upload URL for `me`, valid 15 minutes. A declared size over the limit is refused at once. */
export async function createUploadTicket(
  { db }: Pick<Deps, "db">,
  me: UserRow,
  request: { filename?: string; contentType?: string; size?: number },
): Promise<UploadTicket> {
  if (request.size !== undefined && request.size > MAX_ATTACHMENT_BYTES) throw tooLarge(FILE_TOO_LARGE, "file_too_large");
  const token = randomHex(32);
  const id = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + UPLOAD_URL_TTL_MS).toISOString();
  await db.insert(uploads).values({
    id,
    tokenHash: await sha256Hex(token),
    ownerId: me.id,
    objectKey: `uploads/${id}`,
    filename: request.filename ?? null,
    contentType: request.contentType || null,
    expiresAt,
  });
  return { uploadURL: `${UPLOAD_URL_PATH}${token}`, objectPath: `${OBJECT_PATH_PREFIX}${id}`, expiresAt };
}

/** Counts bytes on their way through and fails the stream as soon as there are too many. */
function byteLimit(limit: number) {
  const count = { bytes: 0, exceeded: false };
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      count.bytes += chunk.byteLength;
      if (count.bytes > limit) {
        count.exceeded = true;
        controller.error(new Error("upload too large"));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return { stream, count };
}

/**
 * `PUT <uploadURL>`: claims the token (once, before it expires), then streams the body into R2,
 * refusing more than 50 MB both by its Content-Length and by counting what actually arrives.
 */
export async function receiveUpload(
  deps: Pick<Deps, "db" | "env">,
  token: string,
  body: ReadableStream<Uint8Array> | null,
  headers: { contentLength?: string; contentType?: string },
): Promise<{ objectPath: string; size: number }> {
  const declared = headers.contentLength === undefined ? null : Number(headers.contentLength);
  if (declared === null) throw new AppError(411, "length_required", "Content-Length is required");
  if (!Number.isSafeInteger(declared) || declared < 0) throw badRequest("Content-Length must be a number of bytes");
  if (declared > MAX_ATTACHMENT_BYTES) throw tooLarge(FILE_TOO_LARGE, "file_too_large");

  const upload = await claimUploadToken(deps.db, token);
  const contentType = usableContentType(headers.contentType) ?? upload.contentType ?? "application/octet-stream";

  const limit = byteLimit(MAX_ATTACHMENT_BYTES);
  // R2 needs a stream of known length; FixedLengthStream also fails when the body and its Content-Length disagree.
  const sized = new FixedLengthStream(declared);
  const source = body ?? new Blob([]).stream();
  const piping = source.pipeThrough(limit.stream).pipeTo(sized.writable);
  try {
    await Promise.all([deps.env.FILES.put(upload.objectKey, sized.readable, { httpMetadata: { contentType } }), piping]);
  } catch (err) {
    piping.catch(() => undefined);
    if (limit.count.exceeded) throw tooLarge(FILE_TOO_LARGE, "file_too_large");
    console.error("upload failed", upload.id, err);
    throw badRequest("The upload did not complete. Please ask for a new upload URL and try again.", "upload_failed");
  }

  await deps.db
    .update(uploads)
    .set({ size: limit.count.bytes, contentType, completedAt: nowIso() })
    .where(eq(uploads.id, upload.id));
  return { objectPath: `${OBJECT_PATH_PREFIX}${upload.id}`, size: limit.count.bytes };
}

/** Marks the token used, atomically: of two PUTs racing with one token, one wins. */
async function claimUploadToken(db: Db, token: string): Promise<UploadRow> {
  const tokenHash = await sha256Hex(token);
  const now = nowIso();
  const [claimed] = await db
    .update(uploads)
    .set({ usedAt: now })
    .where(and(eq(uploads.tokenHash, tokenHash), isNull(uploads.usedAt), gt(uploads.expiresAt, now)))
    .returning();
  if (claimed) return claimed;
  const row = await db.query.uploads.findFirst({ where: eq(uploads.tokenHash, tokenHash) });
  if (!row) throw notFound("Upload URL not found", "upload_not_found");
  if (row.usedAt) throw new AppError(410, "upload_url_used", "This upload URL was already used. Please ask for a new one.");
  throw new AppError(410, "upload_url_expired", "This upload URL has expired. Please ask for a new one.");
}

/** A Content-Type worth keeping (type/subtype with optional parameters), else null. */
function usableContentType(value: string | undefined): string | null {
  const v = value?.trim();
  return v && v.length <= 255 && /^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(v) ? v : null;
}

// ---- Attachments ------------------------------------------------------------------------------

/** An attachment about to be linked to a gig: its new row and how gig events and chat list it. */
export interface PreparedAttachment {
  row: typeof attachments.$inferInsert;
  view: AttachmentView;
}

/** Which upload an attachment `url` names: the objectPath, or the uploadURL it was sent to (relative or absolute). */
export function uploadReference(url: string): { uploadId: string } | { token: string } | null {
  let path: string;
  try {
    path = new URL(url, "http://upload.invalid").pathname;
  } catch {
    return null;
  }
  const byPath = path.match(/^\/objects\/uploads\/([0-9a-f-]{36})$/i);
  if (byPath) return { uploadId: byPath[1]!.toLowerCase() };
  const byToken = path.match(/^\/api\/objects\/upload\/([0-9a-f]{64})$/i);
  if (byToken) return { token: byToken[1]!.toLowerCase() };
  return null;
}

async function findUpload(db: Db, url: string): Promise<UploadRow> {
  const ref = uploadReference(url);
  if (!ref) throw badRequest("Attachments must reference a file uploaded through /api/objects/upload", "unknown_upload");
  const row =
    "uploadId" in ref
      ? await db.query.uploads.findFirst({ where: eq(uploads.id, ref.uploadId) })
      : await db.query.uploads.findFirst({ where: eq(uploads.tokenHash, await sha256Hex(ref.token)) });
  if (!row) throw badRequest("Attachment not found: upload the file first", "unknown_upload");
  return row;
}

/**
 * Checks that every reference is one of `ownerId`'s finished, not yet attached uploads, and prepares
 * its attachment for `gigId`. Someone else's upload is refused (403).
 */
export async function prepareAttachments({ db }: Pick<Deps, "db">, ownerId: string, gigId: string, refs: readonly AttachmentRef[]): Promise<PreparedAttachment[]> {
  const prepared: PreparedAttachment[] = [];
  for (const ref of refs) {
    const upload = await findUpload(db, ref.url);
    if (upload.ownerId !== ownerId) throw forbidden("You can only attach files you uploaded yourself", "not_your_upload");
    if (!upload.completedAt || upload.size === null) throw badRequest(`${ref.filename} has not finished uploading`, "upload_incomplete");
    if (prepared.some((p) => p.row.uploadId === upload.id)) throw badRequest(`${ref.filename} is attached twice`, "duplicate_attachment");
    const id = crypto.randomUUID();
    const filename = ref.filename || upload.filename || "file";
    // The stored object is the truth about size and type; the name is the member's to choose.
    const view: AttachmentView = {
      id,
      url: attachmentDownloadPath(id),
      filename,
      fileSize: upload.size,
      mimeType: upload.contentType ?? ref.mimeType ?? "application/octet-stream",
    };
    prepared.push({
      view,
      row: { id, gigId, ownerId, uploadId: upload.id, objectKey: upload.objectKey, filename, fileSize: view.fileSize, mimeType: view.mimeType },
    });
  }
  if (prepared.length > 0) {
    const taken = await db
      .select({ uploadId: attachments.uploadId })
      .from(attachments)
      .where(inArray(attachments.uploadId, prepared.map((p) => p.row.uploadId)))
      .limit(1);
    if (taken.length > 0) throw conflict(ALREADY_ATTACHED, "upload_already_attached");
  }
  return prepared;
}

/** Writes the attachments' rows inside a change, only when `when` holds (the unique upload id refuses a second link). */
export function insertAttachments(change: AtomicChange, when: Guard, prepared: readonly PreparedAttachment[]): void {
  for (const p of prepared) change.insert(attachments, { ...p.row, createdAt: change.at }, when);
}

const ALREADY_ATTACHED = "One of these files is already attached to a gig. Please upload it again.";

/**
 * A batch that failed because an upload was linked twice at the same moment (the unique upload id), as the
 * 409 prepareAttachments answers when it sees it first; any other error as it was. Nothing was written.
 */
export function attachmentRaceAsConflict(err: unknown, message = ALREADY_ATTACHED): unknown {
  const race = err instanceof Error && /UNIQUE constraint failed: attachments\.upload_id/.test(`${err.message} ${String(err.cause ?? "")}`);
  return race ? conflict(message, "upload_already_attached") : err;
}

export function attachmentView(row: Pick<AttachmentRow, "id" | "filename" | "fileSize" | "mimeType">): AttachmentView {
  return { id: row.id, url: attachmentDownloadPath(row.id), filename: row.filename, fileSize: row.fileSize, mimeType: row.mimeType };
}

// ---- Housekeeping ---------------------------------------------------------------------------

/** How long after its URL expired an upload that was never attached is kept. */
export const ABANDONED_UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes uploads nobody attached a day after their URL expired: unused URLs, and files picked but
 * never delivered. Rows go first (an attachment made meanwhile keeps its row), then their objects.
 * Safe to run twice; meant for the minute cron.
 */
export async function sweepAbandonedUploads(deps: Pick<Deps, "db" | "env">, now = new Date(), limit = 100): Promise<number> {
  const cutoff = new Date(now.getTime() - ABANDONED_UPLOAD_GRACE_MS).toISOString();
  const unattached = sql`NOT EXISTS (SELECT 1 FROM attachments a WHERE a.upload_id = ${uploads.id})`;
  const candidates = await deps.db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(lt(uploads.expiresAt, cutoff), unattached))
    .limit(limit);
  if (candidates.length === 0) return 0;
  const removed = await deps.db
    .delete(uploads)
    .where(and(inArray(uploads.id, candidates.map((c) => c.id)), unattached))
    .returning({ objectKey: uploads.objectKey, usedAt: uploads.usedAt });
  const keys = removed.filter((r) => r.usedAt).map((r) => r.objectKey);
  if (keys.length > 0) await deps.env.FILES.delete(keys);
  return removed.length;
}

// ---- Downloads --------------------------------------------------------------------------------

/** The attachment and its object, for the gig's parties and the admin only. */
export async function openAttachment(deps: Pick<Deps, "db" | "env">, attachmentId: string, viewer: Viewer): Promise<{ attachment: AttachmentRow; object: R2ObjectBody }> {
  const attachment = await deps.db.query.attachments.findFirst({ where: eq(attachments.id, attachmentId) });
  if (!attachment) throw notFound("Attachment not found", "attachment_not_found");
  const { since } = await gigHistoryForParty(deps, attachment.gigId, viewer);
  // An earlier hirer's file on a re-hired service offering is not this hirer's to see (gig-access.ts).
  if (since && attachment.createdAt < since && attachment.ownerId !== viewer.userId) throw notFound("Attachment not found", "attachment_not_found");
  const object = await deps.env.FILES.get(attachment.objectKey);
  if (!object) throw notFound("The file is no longer available", "file_missing");
  return { attachment, object };
}

/** `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<the real name>` (RFC 6266). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%;]/g, "_").slice(0, 200) || "download";
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The stored type when it is a plain `type/subtype`, else a download-only type. */
export function downloadContentType(mimeType: string): string {
  return /^[\w.+-]+\/[\w.+-]+$/.test(mimeType) ? mimeType : "application/octet-stream";
}
