// Notifications as private Nostr messages (NIP-17; docs/decisions/026): what a member who turned on "Send my
// notifications as Nostr DMs" receives from the platform's key, and where. Pure: the Worker
// (worker/services/nostr-dms.ts) seals and gift-wraps the message with nostr-tools (nip17/nip59/nip44), and its
// outbox sends the wrap to the member's DM relays.
import { gigPageUrl } from "./nostr-listing";

/** NIP-17's chat message: the unsigned "rumor" inside the seal. */
export const PRIVATE_MESSAGE_KIND = 14;
/** NIP-59's seal (signed by the platform's key, encrypted to the member). */
export const SEAL_KIND = 13;
/** NIP-59's gift wrap (signed by a one-time key, `p` = the member): the only event a relay sees. */
export const GIFT_WRAP_KIND = 1059;
/** NIP-17's list of the relays a member wants their private messages on (`relay` tags). */
export const DM_RELAYS_KIND = 10050;

/** Relays of a member's kind 10050 list used at most (NIP-17 asks for a short list: 1-3 relays). */
export const DM_RELAYS_MAX = 3;

/** What one notification says. */
export interface NotificationText {
  title: string;
  message: string;
  gigId: string | null;
}

/**
 * The private message for a notification: its title, its message and, for a gig's notification, the gig's page
 * on the public origin (the link the gig's listing carries). Plain text: Nostr clients show it as a chat message.
 */
export function notificationDmContent(n: NotificationText, origin: string | null): string {
  const parts = [n.title.trim(), n.message.trim()];
  if (n.gigId && origin) parts.push(gigPageUrl(origin, n.gigId));
  return parts.filter((p) => p.length > 0).join("\n\n");
}

/** A relay URL a private message may go to: ws:// or wss:// with a host, at most 300 characters. */
export function isRelayUrl(value: string): boolean {
  if (value.length > 300) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "ws:" || url.protocol === "wss:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * The relays a kind 10050 list names (its `relay` tags), in its order, without duplicates and anything that is
 * not a relay URL, at most DM_RELAYS_MAX. An empty answer means: the member has no usable list.
 */
export function dmRelaysOfList(tags: readonly string[][]): string[] {
  const relays: string[] = [];
  for (const tag of tags) {
    if (tag[0] !== "relay" || typeof tag[1] !== "string") continue;
    const url = tag[1].trim();
    if (!isRelayUrl(url) || relays.includes(url)) continue;
    relays.push(url);
    if (relays.length >= DM_RELAYS_MAX) break;
  }
  return relays;
}
