// Verifying a signed login event, built from small named checks (after nostr-tools' nip98.ts).
// Each check returns null when the event passes, or the reason it fails.
import { verifyEvent } from "nostr-tools/pure";
import { z } from "zod";
import { timingSafeEqual } from "./tokens";

/** A login event our web client signs (NIP-42 style, naming this site in its `relay` tag). */
export const SITE_AUTH_KIND = 22242;
/** NIP-98 HTTP Auth, for scripts and agents (naming the verify URL and POST). */
export const HTTP_AUTH_KIND = 27235;
/**
 * The kinds that sign anyone in. Not kind 1 (which SPEC.md §7 names; decision 023): a note is what every
 * Nostr client signs and publishes all day, often without a prompt, so it proves nothing about a login.
 */
export const LOGIN_KINDS = [SITE_AUTH_KIND, HTTP_AUTH_KIND] as const;
/** The path a NIP-98 login names in its `u` tag, after one of this site's origins. */
export const VERIFY_PATH = "/api/auth/nostr/verify";
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

const HEX_64 = /^[0-9a-f]{64}$/;
const HEX_128 = /^[0-9a-f]{128}$/;
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const isTag = (tag: unknown): tag is string[] =>
  Array.isArray(tag) && tag.length <= LOGIN_EVENT_LIMITS.tagValues && tag.every((v) => typeof v === "string" && v.length <= LOGIN_EVENT_LIMITS.tagValueChars);

/**
 * A login event as `nostrEventSchema` parses it, checked by hand: what every honest sign-in sends, without the
 * schema's cost (zod was 4–5 % of a sign-in's CPU: README, "Where the CPU goes"). Each check is the schema's or
 * stricter, so whatever passes here the schema accepts, and the event holds only the schema's fields. Anything
 * else answers null: the caller then parses it with the schema, which says what is wrong, in its words.
 */
export function plainLoginEvent(value: unknown): LoginEvent | null {
  if (!isRecord(value)) return null;
  const { id, pubkey, created_at, kind, tags, content, sig } = value;
  if (typeof id !== "string" || !HEX_64.test(id) || typeof pubkey !== "string" || !HEX_64.test(pubkey)) return null;
  if (!isCount(created_at) || !isCount(kind)) return null;
  if (!Array.isArray(tags) || tags.length > LOGIN_EVENT_LIMITS.tags || !tags.every(isTag)) return null;
  if (typeof content !== "string" || content.length > LOGIN_EVENT_LIMITS.contentChars) return null;
  if (typeof sig !== "string" || !HEX_128.test(sig)) return null;
  return { id, pubkey, created_at, kind, tags: tags as string[][], content, sig };
}

export const LOGIN_KIND_REQUIRED = "Sign-in needs a kind 22242 event naming this site (or NIP-98 kind 27235)";

export function checkKind(event: LoginEvent): string | null {
  if ((LOGIN_KINDS as readonly number[]).includes(event.kind)) return null;
  return event.kind === 1
    ? `${LOGIN_KIND_REQUIRED}; kind 1 notes are not accepted`
    : `${LOGIN_KIND_REQUIRED}; kind ${event.kind} events are not accepted`;
}

/** Both kinds carry the challenge in a `challenge` tag (NIP-98 has none of its own: ours is bound in a tag). */
export function checkChallenge(event: LoginEvent, challenge: string): string | null {
  const tag = event.tags.find((t) => t[0] === "challenge")?.[1];
  // In constant time: a signed challenge is a MAC (auth/login-challenges.ts), which a comparison that stops at the
  // first differing character would let a patient client guess character by character.
  return tag !== undefined && timingSafeEqual(tag, challenge) ? null : "Login event does not carry the challenge";
}

/**
 * Kind 22242 must name this site in its `relay` tag. Clients that answer a relay's NIP-42 AUTH sign
 * whatever challenge a relay sends; a hostile relay could pass ours on, and the event it gets back
 * names that relay, not us, so it signs nobody in here.
 */
export function checkRelay(event: LoginEvent, siteOrigins: readonly string[]): string | null {
  if (event.kind !== SITE_AUTH_KIND) return null;
  const relay = event.tags.find((t) => t[0] === "relay")?.[1];
  if (relay !== undefined && siteOrigins.includes(originOf(relay))) return null;
  return `Login event must name this site (${siteOrigins[0]}) in its relay tag`;
}

/**
 * Kind 27235 (NIP-98) must name this site's verify URL in its `u` tag, exactly (any origin the relay
 * check accepts), and POST in its `method` tag. A NIP-98 event a client signed for another service
 * names that service's URL, so it signs nobody in here.
 */
export function checkHttpAuth(event: LoginEvent, siteOrigins: readonly string[]): string | null {
  if (event.kind !== HTTP_AUTH_KIND) return null;
  const url = event.tags.find((t) => t[0] === "u")?.[1];
  if (url === undefined || !siteOrigins.some((origin) => url === `${origin}${VERIFY_PATH}`)) {
    return `Login event must name this site's verify URL (${siteOrigins[0]}${VERIFY_PATH}) in its u tag`;
  }
  const method = event.tags.find((t) => t[0] === "method")?.[1];
  return method === "POST" ? null : "Login event must name the POST method in its method tag";
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
    checkHttpAuth(event, expected.siteOrigins) ??
    checkTimestamp(event, nowSeconds) ??
    checkSignature(event)
  );
}
