// Chat: the `/ws` upgrade, routed to the gig's GigRoom, and the REST history of a gig's messages.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context";
import { connectToRoom, HISTORY_PAGE_MAX, listChatMessages } from "../services/chat";
import { parseQuery } from "./parse";
import { depsOf } from "./deps";
import { refusedUpgrade } from "./socket-upgrade";

const historyQuery = z.object({
  limit: z.coerce.number().int().min(1, "limit must be between 1 and 100").max(HISTORY_PAGE_MAX, "limit must be between 1 and 100").default(HISTORY_PAGE_MAX),
  before: z.string().max(500).optional(),
});

/** `GET /api/gigs/{id}/messages`: oldest first; `X-Next-Cursor` (pass as `before`) pages back. */
export const chatHistoryRoutes = new Hono<AppEnv>().get("/:id/messages", async (c) => {
  const page = parseQuery(c, historyQuery);
  const history = await listChatMessages(depsOf(c), c.req.param("id"), { userId: c.var.user?.id ?? null, isAdmin: c.var.isAdmin }, page);
  if (history.nextCursor) c.header("X-Next-Cursor", history.nextCursor);
  return c.json(history.messages);
});

/**
 * `GET /ws?gigId=<id>` with `Upgrade: websocket`. Who the caller is gets settled inside the socket
 * (`auth` frame), so this only refuses what must never reach a room: no upgrade, another site's page
 * (a browser always sends Origin; clients that are not browsers send none), an unknown gig.
 */
export const chatSocketRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const refused = refusedUpgrade(c);
  if (refused) return refused;
  const gigId = z.string().min(1).max(64).safeParse(c.req.query("gigId"));
  if (!gigId.success) return c.json({ message: "gigId is required: connect to /ws?gigId=<gig id>", error: "invalid_input" }, 400);
  return connectToRoom(depsOf(c), gigId.data, c.req.raw);
});
