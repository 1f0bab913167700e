// Files over HTTP (SPEC.md §7 Files): ask for a one-time upload URL, PUT the file to it with its content
// type, and download a delivered file with the session's bearer token.
import { attachmentDownloadPath, MAX_ATTACHMENT_BYTES, type AttachmentRef, type AttachmentView, type UploadTicket } from "../../../../domain/files";
import { apiJson, getSessionToken } from "../../lib/api";

export const isTooLarge = (file: Pick<File, "size">) => file.size > MAX_ATTACHMENT_BYTES;

/** Uploads one file: POST /api/objects/upload, then PUT to the uploadURL. Answers the reference to attach. */
export async function uploadAttachment(file: File): Promise<AttachmentRef> {
  const mimeType = file.type || "application/octet-stream";
  const ticket = await apiJson<UploadTicket>("POST", "/api/objects/upload", { filename: file.name, contentType: mimeType, size: file.size });
  const res = await fetch(ticket.uploadURL, { method: "PUT", body: file, headers: { "Content-Type": mimeType }, credentials: "include" });
  if (!res.ok) {
    const text = await res.text();
    throw new Error(serverText(text) ?? `Upload failed with status ${res.status}`);
  }
  return { url: ticket.objectPath, filename: file.name, fileSize: file.size, mimeType };
}

/** The human text of one of our JSON error bodies ({message} first, then {error}). */
function serverText(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    if (typeof parsed.message === "string" && parsed.message) return parsed.message;
    if (typeof parsed.error === "string" && parsed.error) return parsed.error;
  } catch {
    /* not JSON */
  }
  return undefined;
}

export class DownloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DownloadError";
  }
}

/** Saves a delivered file: fetched with the bearer token (the download is party-only), then handed to the browser. */
export async function downloadAttachment(attachment: Pick<AttachmentView, "id" | "filename"> & { url?: string }): Promise<void> {
  const headers: Record<string, string> = {};
  const token = getSessionToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(attachment.url ?? attachmentDownloadPath(attachment.id), { headers, credentials: "include" });
  if (!res.ok) {
    throw new DownloadError(serverText(await res.text().catch(() => "")) ?? `Download failed with status ${res.status}`);
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = attachment.filename;
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start the download before the URL goes away.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
