// Limits on the doors that cost us something per request (issue 14): each door, its limit and what it
// is counted by, in one table. Counting is Cloudflare's Workers Rate Limiting binding (`[[ratelimits]]`
// in wrangler.toml, which holds the same numbers: a binding has one limit and period, so doors with
// the same numbers share one, each under its own key). The limits are far above what an honest person
// does; over one, the answer is 429 with Retry-After.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import type { Env } from "./env";

type LimiterBinding = "RATE_LIMIT_30_PER_MINUTE" | "RATE_LIMIT_20_PER_MINUTE" | "RATE_LIMIT_5_PER_MINUTE";

export interface Door {
  /** What the README and the 429 message call it. */
  label: string;
  binding: LimiterBinding;
  limit: number;
  periodSeconds: 10 | 60;
  /** `address`: the client's address; `member`: the signed-in member (else their address). */
  by: "address" | "member";
}

export const DOORS = {
  loginChallenge: { label: "login challenges", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "address" },
  gigPost: { label: "gig posts", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "member" },
  hire: { label: "claims and hires", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "member" },
  uploadUrl: { label: "upload URLs", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "member" },
  interest: { label: "interest messages", binding: "RATE_LIMIT_20_PER_MINUTE", limit: 20, periodSeconds: 60, by: "member" },
  portfolio: { label: "portfolio changes", binding: "RATE_LIMIT_20_PER_MINUTE", limit: 20, periodSeconds: 60, by: "member" },
  report: { label: "reports", binding: "RATE_LIMIT_5_PER_MINUTE", limit: 5, periodSeconds: 60, by: "member" },
  suggestion: { label: "suggestions", binding: "RATE_LIMIT_5_PER_MINUTE", limit: 5, periodSeconds: 60, by: "member" },
  payoutRetry: { label: "payout retries", binding: "RATE_LIMIT_5_PER_MINUTE", limit: 5, periodSeconds: 60, by: "member" },
} as const satisfies Record<string, Door>;

export type DoorName = keyof typeof DOORS;

/** Chat messages per socket, counted in the GigRoom itself (a socket is one connection to one room). */
export const CHAT_MESSAGES_PER_SOCKET = { limit: 30, periodSeconds: 10 } as const;

export const CHAT_RATE_LIMITED_MESSAGE = "Too many messages. Please wait a few seconds and try again.";

/**
 * Counts one chat message in a socket's fixed window: the new window to keep, or null when the socket
 * already sent its limit in this window (the message is refused, not stored).
 */
export function countChatMessage(window: { windowStart: number; count: number } | undefined, nowMs: number): { windowStart: number; count: number } | null {
  const periodMs = CHAT_MESSAGES_PER_SOCKET.periodSeconds * 1000;
  if (!window || nowMs - window.windowStart >= periodMs) return { windowStart: nowMs, count: 1 };
  if (window.count >= CHAT_MESSAGES_PER_SOCKET.limit) return null;
  return { windowStart: window.windowStart, count: window.count + 1 };
}

/**
 * Who is counted. On Cloudflare every request carries `CF-Connecting-IP` (and `wrangler dev` sets it
 * too); only a request handed to the Worker by the unit-test harness has none, and is not counted by
 * address.
 */
function clientKey(c: Parameters<MiddlewareHandler<AppEnv>>[0], door: Door): string | null {
  if (door.by === "member" && c.var.user) return `member:${c.var.user.id}`;
  const address = c.req.header("cf-connecting-ip");
  return address ? `address:${address}` : null;
}

export function rateLimited(door: Door): { status: 429; retryAfterSeconds: number; message: string } {
  return {
    status: 429,
    retryAfterSeconds: door.periodSeconds,
    message: `Too many ${door.label}. Please wait a minute and try again.`,
  };
}

/** Route middleware: counts the request against `name`'s limit, or answers 429 with Retry-After. */
export function rateLimit(name: DoorName): MiddlewareHandler<AppEnv> {
  const door: Door = DOORS[name];
  return async (c, next) => {
    const key = clientKey(c, door);
    if (key) {
      const limiter = (c.env as Env)[door.binding];
      const { success } = await limiter.limit({ key: `${name}:${key}` });
      if (!success) {
        const refusal = rateLimited(door);
        c.header("Retry-After", String(refusal.retryAfterSeconds));
        return c.json({ message: refusal.message, error: "rate_limited" }, 429);
      }
    }
    await next();
  };
}
