import type { AppContext } from "../context";

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
