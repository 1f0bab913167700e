// Signing a review with the member's own Nostr key (docs/decisions/028), so anyone can verify it: the event is
// domain/nostr-review.ts's template (a NIP-32 label, kind 1985, of the reviewee in the gig's listing), signed by the
// app's current signer (the extension or remote signer the member logged in with: features/auth/signer.ts), or,
// when nothing here can sign (a With Key / Create New login keeps no key), by a private key the member types for
// this one signature: it is read, used and wiped in memory, never stored or sent.
import { gigReference, reviewTemplate, type ReviewedRole } from "../../../../domain/nostr-review";
import { apiJson } from "../../lib/api";
import { parsePrivateKey, PrivateKeyError, signWithPrivateKey, type SignedNostrEvent } from "../../lib/nostr";
import { signAsMember } from "../auth/signer";
import type { Gig } from "./types";

export const REVIEW_SIGNATURE_TEXTS = {
  noSigner:
    "Nothing in this tab can sign with your Nostr key (no extension or remote signer here, and a key you logged in with is never kept). Enter your private key to sign this one review, or submit it unsigned: it then shows as not verified.",
  signFailed: "Enter your private key to sign this review instead, or submit it unsigned: it then shows as not verified.",
  otherKey: "This is not the key you logged in with.",
  keyRequired: "Enter your private key (nsec or 64-character hex) to sign, or submit the review unsigned.",
  noRevieweeKey: "The member you are reviewing has no Nostr key, so this review cannot be signed. Submit it unsigned.",
  noMemberKey: "Your account has no Nostr key to sign with. Submit the review unsigned.",
} as const;

/** What the member is about to send. */
export interface ReviewToSign {
  gig: Pick<Gig, "id" | "gigType" | "status" | "escrowStatus" | "resolution">;
  revieweeId: string;
  revieweeRole: ReviewedRole;
  rating: number;
  comment: string | null;
  /** The platform's Nostr key (GET /api/config), or null while it publishes nothing: the review then names the gig's page. */
  platformPubkey: string | null;
}

/** How the review gets signed: the app's current signer, or a private key typed for this one signature. */
export type ReviewSigner = { kind: "current"; signal?: AbortSignal } | { kind: "key"; typed: string };

/** The member's public key (hex): stored on the account, else decoded from their npub username. */
export async function memberPubkey(user: { nostrPubkey: string | null; username: string }): Promise<string> {
  if (user.nostrPubkey) return user.nostrPubkey;
  const { decode } = await import("nostr-tools/nip19");
  try {
    const decoded = decode(user.username);
    if (decoded.type === "npub") return decoded.data;
  } catch {
    // Not an npub: no key to sign with.
  }
  throw new Error(REVIEW_SIGNATURE_TEXTS.noMemberKey);
}

/** The reviewee's public key, from their public profile. */
async function revieweePubkey(revieweeId: string): Promise<string> {
  const user = await apiJson<{ nostrPubkey: string | null }>("GET", `/api/users/${encodeURIComponent(revieweeId)}`);
  if (!user.nostrPubkey) throw new Error(REVIEW_SIGNATURE_TEXTS.noRevieweeKey);
  return user.nostrPubkey;
}

/** Signs with a typed key, after checking it is the member's; the key's bytes are wiped once used. */
async function signWithTypedKey(typed: string, pubkey: string, template: Parameters<typeof signWithPrivateKey>[1]): Promise<SignedNostrEvent> {
  if (!typed.trim()) throw new PrivateKeyError(REVIEW_SIGNATURE_TEXTS.keyRequired);
  const secretKey = await parsePrivateKey(typed);
  try {
    const { getPublicKey } = await import("nostr-tools/pure");
    let own: string;
    try {
      own = getPublicKey(secretKey);
    } catch {
      throw new PrivateKeyError(REVIEW_SIGNATURE_TEXTS.otherKey);
    }
    if (own !== pubkey) throw new PrivateKeyError(REVIEW_SIGNATURE_TEXTS.otherKey);
    return await signWithPrivateKey(secretKey, template);
  } finally {
    secretKey.fill(0);
  }
}

/** The review as a signed Nostr event, by `signer`; refuses a signature by any key but the member's. */
export async function signReview(
  review: ReviewToSign,
  member: { nostrPubkey: string | null; username: string },
  signer: ReviewSigner,
  { origin = location.origin, nowMs = Date.now() }: { origin?: string; nowMs?: number } = {},
): Promise<SignedNostrEvent> {
  const [pubkey, reviewee] = await Promise.all([memberPubkey(member), revieweePubkey(review.revieweeId)]);
  const template = reviewTemplate(
    { revieweePubkey: reviewee, revieweeRole: review.revieweeRole, rating: review.rating, comment: review.comment },
    gigReference(review.gig, review.platformPubkey, origin),
    { createdAt: Math.floor(nowMs / 1000) },
  );
  if (signer.kind === "key") return signWithTypedKey(signer.typed, pubkey, template);
  return signAsMember(template, { pubkey, signal: signer.signal });
}
