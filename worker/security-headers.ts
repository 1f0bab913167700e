import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { SECURITY_HEADERS } from "./security-policy";

export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "./security-policy";

const HEADER_ENTRIES = Object.entries(SECURITY_HEADERS);

function setSecurityHeaders(headers: Headers): void {
  for (const [name, value] of HEADER_ENTRIES) {
    // A route may set a stricter policy of its own (file downloads are sandboxed).
    if (name === "Content-Security-Policy" && headers.has(name)) continue;
    headers.set(name, value);
  }
}

export function withSecurityHeaders(response: Response): Response {
  try {
    // The Worker's own answers have mutable headers: set them in place, without copying the response.
    setSecurityHeaders(response.headers);
    return response;
  } catch {
    // Immutable headers (an answer from fetch(), e.g. the static assets): a copy gets them.
    const headers = new Headers(response.headers);
    setSecurityHeaders(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers, webSocket: response.webSocket });
  }
}

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  c.res = withSecurityHeaders(c.res);
};
