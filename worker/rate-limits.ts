// Limits on the doors that cost us something per request (issue 14): each door, its limit and what it
// is counted by, in one table. Counting is Cloudflare's Workers Rate Limiting binding (`[[ratelimits]]`
// in wrangler.toml, which holds the same numbers: a binding has one limit and period, so doors with
// the same numbers share one, each under its own key). The limits are far above what an honest person
// does; over one, the answer is 429 with Retry-After.
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import type { Env } from "./env";

type LimiterBinding = "RATE_LIMIT_120_PER_MINUTE" | "RATE_LIMIT_30_PER_MINUTE" | "RATE_LIMIT_20_PER_MINUTE" | "RATE_LIMIT_5_PER_MINUTE";

export interface Door {
  /** What the README and the 429 message call it. */
  label: string;
  binding: LimiterBinding;
  limit: number;
  periodSeconds: 10 | 60;
  /** `address`: the client's address (an IPv6 one by its /64); `member`: the signed-in member (else their address). */
  by: "address" | "member";
}

export const DOORS = {
  aliasLnurl: { label: "alias payment requests", binding: "RATE_LIMIT_120_PER_MINUTE", limit: 120, periodSeconds: 60, by: "address" },
  // A login challenge costs a write only where it is stored (no NOSTR_SECRET_KEY), and is counted when asked for
  // only there. A signed one (docs/decisions/034) is stored nowhere until it is used, and its use is a sign-in
  // attempt, counted at the verify: an address uses at most 30 challenges a minute either way, with one check
  // per sign-in (docs/decisions/036).
  loginChallenge: { label: "login challenges", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "address" },
  loginVerify: { label: "sign-in attempts", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "address" },
  gigPost: { label: "gig posts", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "member" },
  hire: { label: "claims and hires", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "member" },
  uploadUrl: { label: "upload URLs", binding: "RATE_LIMIT_30_PER_MINUTE", limit: 30, periodSeconds: 60, by: "member" },
  interest: { label: "interest messages", binding: "RATE_LIMIT_20_PER_MINUTE", limit: 20, periodSeconds: 60, by: "member" },
  portfolio: { label: "portfolio changes", binding: "RATE_LIMIT_20_PER_MINUTE", limit: 20, periodSeconds: 60, by: "member" },
  profileEdit: { label: "profile changes", binding: "RATE_LIMIT_20_PER_MINUTE", limit: 20, periodSeconds: 60, by: "member" },
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
 * The part of a client address that is counted: an IPv4 address as it is; an IPv6 address by its /64
 * (the first four groups, lower case, without leading zeros: `2001:db8::1` and `2001:0db8:0:0:ffff::2`
 * are both `2001:db8:0:0`), because one subscriber gets a whole /64 and could otherwise spend 2^64
 * budgets. An IPv4-mapped IPv6 address (`::ffff:198.51.100.7`) counts as its IPv4 address. Text that is
 * no IP address is counted as it is.
 */
export function clientAddressKey(address: string): string {
  const value = address.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!value.includes(":")) return value;
  const groups = ipv6Groups(value);
  if (!groups) return value;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":");
}

/** The eight 16-bit groups of an IPv6 address (`::` and a trailing dotted IPv4 allowed), or null. */
function ipv6Groups(value: string): number[] | null {
  let text = value;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    const bytes = dotted.slice(2, 6).map(Number);
    if (bytes.some((b) => b > 255)) return null;
    tail.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
    text = dotted[1]!.endsWith("::") ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":"));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (![...head, ...rest].every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  const known = head.length + rest.length + tail.length;
  const missing = 8 - known;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const hex = (g: string) => parseInt(g, 16);
  return [...head.map(hex), ...Array<number>(missing).fill(0), ...rest.map(hex), ...tail];
}

/**
 * Who is counted. On Cloudflare every request carries `CF-Connecting-IP` (and `wrangler dev` sets it
 * too); only a request handed to the Worker by the unit-test harness has none, and is not counted by
 * address.
 */
function clientKey(c: Parameters<MiddlewareHandler<AppEnv>>[0], door: Door): string | null {
  if (door.by === "member" && c.var.user) return `member:${c.var.user.id}`;
  const address = c.req.header("cf-connecting-ip");
  return address ? `address:${clientAddressKey(address)}` : null;
}

export function rateLimited(door: Door): { status: 429; retryAfterSeconds: number; message: string } {
  return {
    status: 429,
    retryAfterSeconds: door.periodSeconds,
    message: `Too many ${door.label}. Please wait a minute and try again.`,
  };
}

/**
 * Route middleware: counts the request against `name`'s limit, or answers 429 with Retry-After. The
 * answer is `{message, error: "rate_limited"}`, or with `answer: "lud06"` the LNURL error a payer's
 * wallet reads, `{status: "ERROR", reason}`. With `when`, the request is counted only when it says so: a
 * door is counted where it costs us something (a login challenge only when it is stored, docs/decisions/036).
 */
export function rateLimit(
  name: DoorName,
  opts: { answer?: "json" | "lud06"; when?: (env: Env) => boolean | Promise<boolean> } = {},
): MiddlewareHandler<AppEnv> {
  const door: Door = DOORS[name];
  return async (c, next) => {
    const key = clientKey(c, door);
    if (key && (!opts.when || (await opts.when(c.env as Env)))) {
      const limiter = (c.env as Env)[door.binding];
      const { success } = await limiter.limit({ key: `${name}:${key}` });
      if (!success) {
        const refusal = rateLimited(door);
        c.header("Retry-After", String(refusal.retryAfterSeconds));
        if (opts.answer === "lud06") return c.json({ status: "ERROR", reason: refusal.message }, 429);
        return c.json({ message: refusal.message, error: "rate_limited" }, 429);
      }
    }
    await next();
  };
}
