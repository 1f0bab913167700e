// Deny by default (STYLE.md 3): every /api route needs a member session unless it is listed
// here as open to visitors; /api/admin/* needs the admin token unless listed as open.
// `/ws` is outside /api: the socket's first frame authenticates it and the GigRoom lets only the
// gig's parties and the admin join (worker/routes/chat.ts, durable-objects/gig-room.ts).
// This table is also what the authorisation matrix test is generated from.
import { PatternRouter } from "hono/router/pattern-router";

export type Access = "visitor" | "member" | "admin";

/** Routes a visitor (no session) may call. Method + Hono path pattern. */
export const VISITOR_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["POST", "/api/auth/nostr/challenge"],
  ["POST", "/api/auth/nostr/verify"],
  ["GET", "/api/users/by-npub/:npub"],
  ["GET", "/api/users/:id"],
  ["GET", "/api/check-gigstr-alias"],
  ["GET", "/api/config"],
  ["GET", "/api/portfolio/user/:userId"],
  ["GET", "/api/reviews/user/:userId"],
  ["GET", "/api/gigs"],
  ["GET", "/api/gigs/:id"],
  ["POST", "/api/admin/auth"],
  ["POST", "/api/admin/logout"],
  ["POST", "/api/dev/invoices/pay"],
  ["POST", "/api/webhooks/lightning/:secret"],
  ["PUT", "/api/objects/upload/:token"],
];

/** Admin-only routes outside /api/admin (SPEC.md §7 Reports). */
export const ADMIN_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/api/gig-reports"],
  ["PATCH", "/api/gig-reports/:id"],
];

/** Routes that a member or the admin may call; the service then checks which object each may see. */
export const MEMBER_OR_ADMIN_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/api/attachments/:id/download"],
  ["GET", "/api/gigs/:id/messages"],
  ["GET", "/api/gigs/:id/events"],
];

/**
 * Member routes whose answer reads the member's own account beyond their id and key (the profile, the Lightning
 * address a post or a claim needs, the alias): for these the signed-in member is read from the database. Every
 * other route knows the member from their session alone, with no read (worker/auth/middleware.ts).
 */
export const MEMBER_ACCOUNT_ROUTES: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/api/user/me"],
  ["PATCH", "/api/user/me"],
  ["DELETE", "/api/user/me"],
  ["POST", "/api/gigs"],
  ["POST", "/api/gigs/:id/claim"],
];

function routerOf(routes: ReadonlyArray<readonly [string, string]>) {
  const router = new PatternRouter<true>();
  for (const [method, path] of routes) router.add(method, path, true);
  return (method: string, path: string) => router.match(method === "HEAD" ? "GET" : method, path)[0].length > 0;
}

const isVisitorRoute = routerOf(VISITOR_ROUTES);
const isAdminRoute = routerOf(ADMIN_ROUTES);
const isMemberOrAdminRoute = routerOf(MEMBER_OR_ADMIN_ROUTES);
const isMemberAccountRoute = routerOf(MEMBER_ACCOUNT_ROUTES);

/** Whether the route reads the signed-in member's account (MEMBER_ACCOUNT_ROUTES). */
export const readsMemberAccount = (method: string, path: string): boolean => isMemberAccountRoute(method, path);

export function accessFor(method: string, path: string): Access | "member-or-admin" {
  if (isVisitorRoute(method, path)) return "visitor";
  if (isAdminRoute(method, path) || path === "/api/admin" || path.startsWith("/api/admin/")) return "admin";
  if (isMemberOrAdminRoute(method, path)) return "member-or-admin";
  return "member";
}
