import { Hono } from "hono";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { listNotifications, markAllRead, markRead, openInbox, unreadCount } from "../services/notifications";
import { depsOf } from "./deps";
import { refusedUpgrade } from "./socket-upgrade";

/** /api/notifications: the signed-in member's bell. */
export const notificationRoutes = new Hono<AppEnv>()
  /**
   * The member's inbox socket (`Upgrade: websocket`, the session token offered as a sub-protocol beside
   * INBOX_PROTOCOL: worker/auth/middleware.ts). Only this site's pages (or clients that are not browsers).
   */
  .get("/socket", async (c) => {
    const member = requireMember(c);
    const refused = refusedUpgrade(c);
    if (refused) return refused;
    return openInbox(depsOf(c), { userId: member.id, sessionId: c.var.sessionId ?? "" }, c.req.raw);
  })
  .get("/", async (c) => c.json(await listNotifications(depsOf(c), requireMember(c).id)))
  .get("/unread-count", async (c) => c.json(await unreadCount(depsOf(c), requireMember(c).id)))
  .patch("/mark-all-read", async (c) => c.json({ success: true, updated: await markAllRead(depsOf(c), requireMember(c).id) }))
  .patch("/:id/read", async (c) => {
    await markRead(depsOf(c), requireMember(c).id, c.req.param("id"));
    return c.json({ success: true });
  });
