import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { SECURITY_HEADERS } from "./security-policy";

export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "./security-policy";

export function withSecurityHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    // A route may set a stricter policy of its own (file downloads are sandboxed).
    if (name === "Content-Security-Policy" && headers.has(name)) continue;
    headers.set(name, value);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers, webSocket: response.webSocket });
}

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.status === 101) return;
  c.res = withSecurityHeaders(c.res);
};
