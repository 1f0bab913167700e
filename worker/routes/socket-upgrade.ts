import type { AppContext } from "../context";
import { INBOX_TOKEN_PREFIX } from "../../domain/notifications";

/** The one request that may carry a session as a WebSocket sub-protocol (`bearer.<token>`): a tab's inbox socket. */
export const INBOX_SOCKET_PATH = "/api/notifications/socket";

/** Whether the request offers a session token among its WebSocket sub-protocols (`bearer.<token>`), well-formed or not. */
export function offersSocketSession(headers: Headers): boolean {
  const protocols = headers.get("sec-websocket-protocol");
  return !!protocols && protocols.split(",").some((p) => p.trim().toLowerCase().startsWith(INBOX_TOKEN_PREFIX));
}

/**
 * A session offered as a sub-protocol is read only by `GET /api/notifications/socket`: anywhere else it is
 * refused (400 `misplaced_session`) before anyone reads it, so no other route answers a member's view to a
 * request that looks like a visitor's (and could be cached as one). Null when the request may go on.
 * Called first by the edge cache's middleware (worker/public-cache.ts), before the session is identified.
 */
export function misplacedSocketSession(c: AppContext): Response | null {
  if (!offersSocketSession(c.req.raw.headers)) return null;
  if (c.req.method === "GET" && c.req.path === INBOX_SOCKET_PATH) return null;
  return c.json({ message: `A session offered as a WebSocket sub-protocol is read only by GET ${INBOX_SOCKET_PATH}`, error: "misplaced_session" }, 400);
}

/**
 * What must never reach a Durable Object's sockets, answered here: a request that is not a WebSocket upgrade,
 * or another site's page (a browser always sends Origin; clients that are not browsers send none). Null when
 * the upgrade may go on.
 */
export function refusedUpgrade(c: AppContext): Response | null {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return c.json({ message: "Expected a WebSocket upgrade", error: "upgrade_required" }, 426);
  }
  const origin = c.req.header("origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin) {
    return c.json({ message: "WebSocket connections from other sites are not allowed", error: "forbidden_origin" }, 403);
  }
  return null;
}
