// Uploads for tests: ask for an upload URL as a member, then PUT the bytes to it.
import { api, call, type Member } from "./factories";

export interface Uploaded {
  uploadURL: string;
  objectPath: string;
  /** The attachment reference a client sends with a submission or a chat message. */
  ref: { url: string; filename: string; fileSize: number; mimeType: string };
}

export async function askUploadUrl(member: Member, body: Record<string, unknown> = {}) {
  return call("/api/objects/upload", member.token, "POST", body);
}

/** PUTs the bytes as a browser would (with their Content-Length; `contentLength` may lie). */
export async function putUpload(uploadURL: string, bytes: Uint8Array, contentType = "application/octet-stream", contentLength = bytes.byteLength) {
  return api(new URL(uploadURL, "https://gigstr.test").pathname, {
    method: "PUT",
    body: bytes,
    headers: { "content-type": contentType, "content-length": String(contentLength) },
  });
}

/** A finished upload of `member`. */
export async function uploadFile(member: Member, content = "hello, hirer", filename = "delivery.txt", mimeType = "text/plain"): Promise<Uploaded> {
  const bytes = new TextEncoder().encode(content);
  const ticket = await askUploadUrl(member, { filename, contentType: mimeType, size: bytes.byteLength });
  if (ticket.status !== 200) throw new Error(`upload URL failed: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const put = await putUpload(ticket.body.uploadURL, bytes, mimeType);
  if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return { ...(ticket.body as { uploadURL: string; objectPath: string }), ref: { url: ticket.body.objectPath, filename, fileSize: bytes.byteLength, mimeType } };
}
