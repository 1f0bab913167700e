// Builds the Hono app: middleware, error handler, and every resource's routes.
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./context";
import { AppError } from "./errors";
import { LightningError } from "./lightning/backend";
import { identify } from "./auth/middleware";
import { resolveAdminToken } from "./auth/admin";
import { d1Session } from "./d1-sessions";
import { publicCache } from "./public-cache";
import { isThisBuild } from "./pages/page";
import { securityHeaders } from "./security-headers";
import { authRoutes } from "./routes/auth";
import { configRoutes } from "./routes/config";
import { gigRoutes } from "./routes/gigs";
import { chatHistoryRoutes, chatSocketRoutes } from "./routes/chat";
import { attachmentRoutes, objectRoutes } from "./routes/files";
import { interestRoutes } from "./routes/interest";
import { notificationRoutes } from "./routes/notifications";
import { lnurlpRoutes } from "./routes/lnurlp";
import { nip05Routes } from "./routes/nostr";
import { previewRoutes, robotsRoutes } from "./routes/previews";
import { devWalletRoutes, webhookRoutes } from "./routes/lightning";
import { portfolioRoutes, reviewRoutes } from "./routes/profiles";
import { aliasCheckRoutes, meRoutes, userRoutes } from "./routes/users";
import { adminRoutes } from "./routes/admin";
import { reportRoutes } from "./routes/reports";
import { myPayoutRoutes } from "./routes/payouts";
import { suggestionRoutes } from "./routes/suggestions";

/** Every request body but an upload's is a small JSON document; anything bigger is refused unread. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: (c) => c.json({ message: "Request body is too large (at most 64 KB).", error: "payload_too_large" }, 413),
});

/** Uploads keep their own 50 MB rule (routes/files.ts, DESIGN.md §7); every other body has the 64 KB one. */
const bodySizeLimit: MiddlewareHandler<AppEnv> = (c, next) =>
  c.req.path.startsWith("/api/objects/upload/") ? next() : jsonBodyLimit(c, next);

export function buildApp() {
  const app = new Hono<AppEnv>();

  app.use("*", securityHeaders);
  app.use("/api/*", bodySizeLimit);
  app.use("/api/*", publicCache((request, env, ctx) => app.fetch(request, env, ctx)));
  app.use("/.well-known/nostr.json", publicCache((request, env, ctx) => app.fetch(request, env, ctx)));
  app.use("/api/*", d1Session);
  app.use("/api/*", identify(resolveAdminToken));
  // The pages the Worker renders (routes/previews.ts): a visitor's from the edge cache while it is this build's,
  // their reads from the nearest copy of the database. Nothing on them reads a session.
  const pageCache = publicCache((request, env, ctx) => app.fetch(request, env, ctx), {
    isCurrent: (stored, c) => isThisBuild(stored, c.env.ASSETS, new URL(c.req.url).origin),
  });
  for (const page of ["/", "/gig/:id", "/gigs/:id", "/user/:npub"]) app.use(page, pageCache, d1Session);

  app.route("/.well-known/lnurlp", lnurlpRoutes);
  app.route("/.well-known/nostr.json", nip05Routes);
  app.route("/", previewRoutes);
  app.route("/", robotsRoutes);
  app.route("/api/config", configRoutes);
  app.route("/api/auth", authRoutes);
  app.route("/api/user/me", meRoutes);
  app.route("/api/user/payouts", myPayoutRoutes);
  app.route("/api/users", userRoutes);
  app.route("/api/check-gigstr-alias", aliasCheckRoutes);
  app.route("/api/portfolio", portfolioRoutes);
  app.route("/api/reviews", reviewRoutes);
  app.route("/api/gigs", chatHistoryRoutes);
  app.route("/api/gigs", gigRoutes);
  app.route("/api/objects", objectRoutes);
  app.route("/api/attachments", attachmentRoutes);
  app.route("/api/pre-claim-messages", interestRoutes);
  app.route("/api/notifications", notificationRoutes);
  app.route("/api/dev", devWalletRoutes);
  app.route("/api/webhooks", webhookRoutes);
  app.route("/api/admin", adminRoutes);
  app.route("/api/gig-reports", reportRoutes);
  app.route("/api/suggestions", suggestionRoutes);
  // Outside /api: the socket authenticates in its first frame (SPEC.md §7 Real-time chat).
  app.route("/ws", chatSocketRoutes);

  app.notFound((c) => c.json({ message: "Not found", error: "not_found" }, 404));
  app.onError((err, c) => {
    if (err instanceof AppError) return c.json({ message: err.message, error: err.code }, err.status);
    if (err instanceof LightningError) {
      console.error("lightning backend", err.code, err.message);
      return c.json({ message: "The Lightning wallet is not reachable right now. Please try again in a moment.", error: "lightning_unavailable" }, 503);
    }
    console.error("unhandled error", c.req.method, c.req.path, err);
    return c.json({ message: "Something went wrong. Please try again.", error: "internal_error" }, 500);
  });
  return app;
}

export const app = buildApp();
export type App = typeof app;
