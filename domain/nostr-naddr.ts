// A gig's Nostr listing (domain/nostr-listing.ts) named as NIP-19 writes an address: its `naddr`. Apart from the
// listing's rules so that the web app, which shows it in a gig's details ("Also on Nostr"), loads the encoder
// only for a gig it shows it for: a visitor's gig page otherwise fetched it with the page.
import { naddrEncode } from "nostr-tools/nip19";
import { LISTING_KIND } from "./nostr-listing";

/** The listing's NIP-19 `naddr` (what "Also on Nostr" shows, and what the handler URL template takes). */
export const listingNaddr = (platformPubkey: string, gigId: string, relays: readonly string[] = []) =>
  naddrEncode({ kind: LISTING_KIND, pubkey: platformPubkey, identifier: gigId, relays: [...relays] });
