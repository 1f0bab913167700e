import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { isLocalRun } from "./deployment";
import { SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "./security-policy";

export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, STRICT_TRANSPORT_SECURITY } from "./security-policy";

type HeaderEntries = readonly (readonly [string, string])[];

const HEADER_ENTRIES: HeaderEntries = Object.entries(SECURITY_HEADERS);
// A deployed Worker's answers also tell browsers to use https only; a local run's must not (security-policy.ts).
const DEPLOYED_HEADER_ENTRIES: HeaderEntries = [...HEADER_ENTRIES, ["Strict-Transport-Security", STRICT_TRANSPORT_SECURITY]];

function setSecurityHeaders(headers: Headers, entries: HeaderEntries): void {
  for (const [name, value] of entries) {
    // A route may set a stricter policy of its own (file downloads are sandboxed).
    if (name === "Content-Security-Policy" && headers.has(name)) continue;
    headers.set(name, value);
  }
}

export function withSecurityHeaders(response: Response, deployed: boolean): Response {
  const entries = deployed ? DEPLOYED_HEADER_ENTRIES : HEADER_ENTRIES;
  try {
    // The Worker's own answers have mutable headers: set them in place, without copying the response.
    setSecurityHeaders(response.headers, entries);
    return response;
  } catch {
    // Immutable headers (an answer from fetch(), e.g. the static assets): a copy gets them.
    const headers = new Headers(response.headers);
    setSecurityHeaders(headers, entries);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers, webSocket: response.webSocket });
  }
}

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  c.res = withSecurityHeaders(c.res, !isLocalRun(c.env));
};
