// Verifying a signed login event, built from small named checks (after nostr-tools' nip98.ts).
// Each check returns null when the event passes, or the reason it fails.
import { verifyEvent } from "nostr-tools/pure";
import { z } from "zod";

export const LOGIN_KINDS = [1, 22242] as const;
export const LOGIN_CLOCK_SKEW_SECONDS = 600;

export const nostrEventSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{64}$/, "Event id must be 64 hex characters"),
  pubkey: z.string().regex(/^[0-9a-f]{64}$/, "Event pubkey must be 64 hex characters"),
  created_at: z.number().int().nonnegative(),
  kind: z.number().int().nonnegative(),
  tags: z.array(z.array(z.string())),
  content: z.string(),
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

export function checkTimestamp(event: LoginEvent, nowSeconds: number): string | null {
  return Math.abs(nowSeconds - event.created_at) <= LOGIN_CLOCK_SKEW_SECONDS
    ? null
    : "Login event is too old or in the future";
}

/** Recomputes the id from the content and verifies the Schnorr signature. */
export function checkSignature(event: LoginEvent): string | null {
  return verifyEvent({ ...event }) ? null : "Invalid signature";
}

export function firstLoginEventProblem(event: LoginEvent, challenge: string, nowSeconds: number): string | null {
  return checkKind(event) ?? checkChallenge(event, challenge) ?? checkTimestamp(event, nowSeconds) ?? checkSignature(event);
}
