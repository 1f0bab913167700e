// Files: one-time upload URLs (`/api/objects/upload`) and attachment downloads (`/api/attachments`).
import { Hono } from "hono";
import { uploadRequestSchema } from "../../domain/file-schemas";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { contentDisposition, createUploadTicket, downloadContentType, openAttachment, receiveUpload } from "../services/files";
import { parseJson } from "./parse";
import { rateLimit } from "../rate-limits";
import { depsOf } from "./deps";

export const objectRoutes = new Hono<AppEnv>()
  /** A one-time URL to PUT one file to (15 minutes), and the path that names the file afterwards. */
  .post("/upload", rateLimit("uploadUrl"), async (c) => {
    const me = requireMember(c);
    const request = await parseJson(c, uploadRequestSchema);
    return c.json(await createUploadTicket(depsOf(c), me, request));
  })
  /** The token in the path is the credential (no session needed): it is single use and short-lived. */
  .put("/upload/:token", async (c) => {
    const stored = await receiveUpload(depsOf(c), c.req.param("token"), c.req.raw.body, {
      contentLength: c.req.header("content-length"),
      contentType: c.req.header("content-type"),
    });
    return c.json({ success: true, ...stored });
  });

export const attachmentRoutes = new Hono<AppEnv>().get("/:id/download", async (c) => {
  const { attachment, object } = await openAttachment(depsOf(c), c.req.param("id"), {
    userId: c.var.user?.id ?? null,
    isAdmin: c.var.isAdmin,
  });
  // Always a download, never rendered: a delivered file must not run as our page.
  return new Response(object.body, {
    headers: {
      "Content-Type": downloadContentType(attachment.mimeType),
      "Content-Length": String(object.size),
      "Content-Disposition": contentDisposition(attachment.filename),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'",
      "Cache-Control": "private, no-store",
    },
  });
});
