// The security headers of every answer; pure, so the web build can write them into `_headers` too.
import { DEFAULT_NOSTR_RELAYS } from "../domain/nostr-relays";

/**
 * The session token lives in localStorage (SPEC.md §1), so no script but our own may ever run:
 * a strict CSP with no inline script and no third-party origin. Images may come from https
 * (profile pictures and portfolio images are user-supplied URLs); connections go to our own
 * origin and the default Nostr relays only. The same policy is written into the static assets'
 * `_headers` at build time (vite.config.ts), so the app's pages carry it too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  `connect-src 'self' ${DEFAULT_NOSTR_RELAYS.join(" ")}`,
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

/** Headers for every answer, static assets included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": CONTENT_SECURITY_POLICY,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
};

