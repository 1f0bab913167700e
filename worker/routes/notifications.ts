import { Hono } from "hono";
import type { AppEnv } from "../context";
import { requireMember } from "../auth/middleware";
import { listNotifications, markAllRead, markRead, unreadCount } from "../services/notifications";
import { depsOf } from "./deps";

/** /api/notifications: the signed-in member's bell. */
export const notificationRoutes = new Hono<AppEnv>()
  .get("/", async (c) => c.json(await listNotifications(depsOf(c), requireMember(c).id)))
  .get("/unread-count", async (c) => c.json(await unreadCount(depsOf(c), requireMember(c).id)))
  .patch("/mark-all-read", async (c) => c.json({ success: true, updated: await markAllRead(depsOf(c), requireMember(c).id) }))
  .patch("/:id/read", async (c) => {
    await markRead(depsOf(c), requireMember(c).id, c.req.param("id"));
    return c.json({ success: true });
  });
