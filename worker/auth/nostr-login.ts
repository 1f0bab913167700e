// Verifying a signed login event, built from small named checks (after nostr-tools' nip98.ts).
// Each check returns null when the event passes, or the reason it fails.
import { verifyEvent } from "nostr-tools/pure";
import { z } from "zod";

export const LOGIN_KINDS = [1, 22242] as const;
export const LOGIN_CLOCK_SKEW_SECONDS = 600;
/** A login event is a few short tags and at most a challenge as content: anything bigger is not one. */
export const LOGIN_EVENT_LIMITS = { tags: 10, tagValues: 4, tagValueChars: 256, contentChars: 1000 } as const;

export const nostrEventSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{64}$/, "Event id must be 64 hex characters"),
  pubkey: z.string().regex(/^[0-9a-f]{64}$/, "Event pubkey must be 64 hex characters"),
  created_at: z.number().int().nonnegative(),
  kind: z.number().int().nonnegative(),
  tags: z
    .array(
      z
        .array(z.string().max(LOGIN_EVENT_LIMITS.tagValueChars, `A login event's tag values are at most ${LOGIN_EVENT_LIMITS.tagValueChars} characters`))
        .max(LOGIN_EVENT_LIMITS.tagValues, `A login event's tags have at most ${LOGIN_EVENT_LIMITS.tagValues} values`),
    )
    .max(LOGIN_EVENT_LIMITS.tags, `A login event has at most ${LOGIN_EVENT_LIMITS.tags} tags`),
  content: z.string().max(LOGIN_EVENT_LIMITS.contentChars, `A login event's content is at most ${LOGIN_EVENT_LIMITS.contentChars} characters`),
  sig: z.string().regex(/^[0-9a-f]{128}$/, "Event signature must be 128 hex characters"),
});
export type LoginEvent = z.infer<typeof nostrEventSchema>;

export function checkKind(event: LoginEvent): string | null {
  return (LOGIN_KINDS as readonly number[]).includes(event.kind) ? null : "Login event must be of kind 1 or 22242";
}

/** Kind 1 carries the challenge as its content (SPEC.md §7); kind 22242 in a `challenge` tag (NIP-42 style). */
export function checkChallenge(event: LoginEvent, challenge: string): string | null {
  if (event.kind === 1) return event.content === challenge ? null : "Login event does not carry the challenge";
  const tag = event.tags.find((t) => t[0] === "challenge");
  return tag?.[1] === challenge ? null : "Login event does not carry the challenge";
}

/**
 * Kind 22242 must name this site in its `relay` tag. Clients that answer a relay's NIP-42 AUTH sign
 * whatever challenge a relay sends; a hostile relay could pass ours on, and the event it gets back
 * names that relay, not us, so it signs nobody in here.
 */
export function checkRelay(event: LoginEvent, siteOrigins: readonly string[]): string | null {
  if (event.kind !== 22242) return null;
  const relay = event.tags.find((t) => t[0] === "relay")?.[1];
  if (relay !== undefined && siteOrigins.includes(originOf(relay))) return null;
  return `Login event must name this site (${siteOrigins[0]}) in its relay tag`;
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === "/" && !parsed.search && !parsed.hash ? parsed.origin : url;
  } catch {
    return url;
  }
}

/** The origins a login may name: the one the request came to, and the public `https://ALIAS_DOMAIN`. */
export function siteOrigins(requestUrl: string, aliasDomain?: string): string[] {
  const own = new URL(requestUrl).origin;
  const alias = aliasDomain ? `https://${aliasDomain}` : undefined;
  return alias && alias !== own ? [own, alias] : [own];
}

export function checkTimestamp(event: LoginEvent, nowSeconds: number): string | null {
  return Math.abs(nowSeconds - event.created_at) <= LOGIN_CLOCK_SKEW_SECONDS
    ? null
    : "Login event is too old or in the future";
}

/** Recomputes the id from the content and verifies the Schnorr signature. */
export function checkSignature(event: LoginEvent): string | null {
  return verifyEvent({ ...event }) ? null : "Invalid signature";
}

export function firstLoginEventProblem(
  event: LoginEvent,
  expected: { challenge: string; siteOrigins: readonly string[] },
  nowSeconds: number,
): string | null {
  return (
    checkKind(event) ??
    checkChallenge(event, expected.challenge) ??
    checkRelay(event, expected.siteOrigins) ??
    checkTimestamp(event, nowSeconds) ??
    checkSignature(event)
  );
}
