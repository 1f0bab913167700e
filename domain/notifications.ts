// A member's notifications as the bell reads them, and the frames their inbox socket pushes
// (`GET /api/notifications/socket`, durable-objects/member-inbox.ts). Shared by the Worker and the web app.
import { z } from "zod";

/** One notification as `GET /api/notifications` answers it (SPEC.md §7 Notifications). */
export interface NotificationView {
  id: string;
  isRead: boolean;
  gigId: string | null;
  /** 'message' (a chat message) opens the gig's chat instead of its details. */
  type: string;
  title: string;
  message: string;
  createdAt: string;
  actorName: string | null;
  actorPicture: string | null;
}

/** The sub-protocol a tab asks for; the session token travels beside it as `bearer.<token>` (a browser cannot set headers on a socket). */
export const INBOX_PROTOCOL = "gigstr-notifications";
export const INBOX_TOKEN_PREFIX = "bearer.";
/** Wait before a tab opens its inbox socket again after it closed (the poll covers the gap). */
export const INBOX_RECONNECT_MS = 5_000;

const notificationViewSchema = z.object({
  id: z.string(),
  isRead: z.boolean(),
  gigId: z.string().nullable(),
  type: z.string(),
  title: z.string(),
  message: z.string(),
  createdAt: z.string(),
  actorName: z.string().nullable(),
  actorPicture: z.string().nullable(),
});

/**
 * Server → tab. `unread_count` is the first frame after the socket opens; `notification` comes with each new
 * notification as it is written, with the unread count after it; `error` comes before a close (a session that ended).
 */
export const inboxFrameSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("unread_count"), count: z.number().int().min(0) }),
  z.object({ type: z.literal("notification"), notification: notificationViewSchema, unreadCount: z.number().int().min(0) }),
  z.object({ type: z.literal("error"), message: z.string() }),
]);
export type InboxFrame = z.infer<typeof inboxFrameSchema>;
