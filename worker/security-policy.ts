// The security headers of every answer; pure, so the web build can write them into `_headers` too.
/**
 * The session token lives in localStorage (SPEC.md §1), so no script but our own may ever run:
 * a strict CSP with no inline script and no third-party origin. Images may come from https
 * (profile pictures and portfolio images are user-supplied URLs); connections go to our own
 * origin and to Nostr relays: any wss:// relay, since a member's remote signer (NIP-46) listens on
 * relays of its own choosing, and ws:// on this machine (a local run's relay, a signer a member
 * runs on their own computer). Decision 027 weighs this. The same policy is written into the static
 * assets' `_headers` at build time (vite.config.ts), so the app's pages carry it too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "connect-src 'self' wss: ws://127.0.0.1:* ws://localhost:*",
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


/**
 * HSTS (RFC 6797) for a deployed Worker: browsers use https only, for two years, on this host and
 * its subdomains. No `preload`: a preload-list entry outlives this deployment and takes months to
 * remove, a choice for the domain's owner, not for the app.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * Hosts of a local run (`npm start` serves http://127.0.0.1:PORT). HSTS there would pin the
 * developer's browser to https for them (`localhost` and every other local app on it).
 */
export const LOCAL_HOSTS = ["127.0.0.1", "localhost"] as const;

/**
 * The static assets' `_headers` file (Workers Static Assets syntax). The assets skip the Worker, so
 * they cannot ask whether this is a local run: every host gets HSTS, and a rule naming the local
 * hosts (it matches on host and path, whatever the port) takes it off again (`! Name` unsets).
 */
export function staticAssetHeadersFile(): string {
  const all = { ...SECURITY_HEADERS, "Strict-Transport-Security": STRICT_TRANSPORT_SECURITY };
  const rules = [`/*\n${Object.entries(all).map(([name, value]) => `  ${name}: ${value}`).join("\n")}`];
  for (const host of LOCAL_HOSTS) rules.push(`https://${host}/*\n  ! Strict-Transport-Security`);
  return `${rules.join("\n")}\n`;
}
