// A member's notifications as the bell reads them, and the frames their inbox socket pushes
// (`GET /api/notifications/socket`, durable-objects/member-inbox.ts). Shared by the Worker and the web app.

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

/**
 * Server → tab. `unread_count` is the first frame after the socket opens; `notification` comes with each new
 * notification as it is written, with the unread count after it; `error` comes before a close (a session that ended).
 */
export type InboxFrame =
  | { type: "unread_count"; count: number }
  | { type: "notification"; notification: NotificationView; unreadCount: number }
  | { type: "error"; message: string };

const isCount = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0;
const isText = (x: unknown): x is string => typeof x === "string";
const isTextOrNull = (x: unknown): x is string | null => x === null || typeof x === "string";

function isNotificationView(x: unknown): x is NotificationView {
  if (x === null || typeof x !== "object") return false;
  const n = x as Record<string, unknown>;
  return (
    isText(n.id) &&
    typeof n.isRead === "boolean" &&
    isTextOrNull(n.gigId) &&
    isText(n.type) &&
    isText(n.title) &&
    isText(n.message) &&
    isText(n.createdAt) &&
    isTextOrNull(n.actorName) &&
    isTextOrNull(n.actorPicture)
  );
}

/**
 * A frame as the tab receives it, checked field by field; null when it is not one. (By hand, not zod: the
 * bell is on the first page, and zod would be the largest library there.)
 */
export function parseInboxFrame(raw: unknown): InboxFrame | null {
  if (raw === null || typeof raw !== "object") return null;
  const f = raw as Record<string, unknown>;
  if (f.type === "unread_count" && isCount(f.count)) return { type: "unread_count", count: f.count };
  if (f.type === "notification" && isCount(f.unreadCount) && isNotificationView(f.notification)) {
    return { type: "notification", notification: f.notification, unreadCount: f.unreadCount };
  }
  if (f.type === "error" && isText(f.message)) return { type: "error", message: f.message };
  return null;
}
