import type { ChatMessageView } from "../domain/chat-protocol";

/**
 * What the Worker asks of a gig's room (durable-objects/gig-room.ts): named by this interface, not the class,
 * so nothing of the Worker imports the room.
 */
export interface GigRoomApi extends Rpc.DurableObjectBranded {
  /** Starts (or keeps) watching the gig's funding invoice. */
  watchFunding(gigId: string): Promise<void>;
  /** Sends a stored message to the room's sockets that may still listen. */
  broadcastMessage(gigId: string, message: ChatMessageView): Promise<void>;
}

/** What the Worker asks of a member's inbox (durable-objects/member-inbox.ts): their open tabs' sockets. */
export interface MemberInboxApi extends Rpc.DurableObjectBranded {
  /** New notifications for this member were written: tell the open tabs (each with the unread count after it). */
  announce(notificationIds: string[]): Promise<void>;
}

/** The Worker's bindings and settings (DESIGN.md §11). Settings arrive as strings. */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  GIG_ROOM: DurableObjectNamespace<GigRoomApi>;
  /** One per member: their open tabs' notification sockets. */
  MEMBER_INBOX: DurableObjectNamespace<MemberInboxApi>;
  ASSETS: Fetcher;
  /** Workers Rate Limiting bindings (wrangler.toml `[[ratelimits]]`; the doors are in worker/rate-limits.ts). */
  RATE_LIMIT_120_PER_MINUTE: RateLimit;
  RATE_LIMIT_30_PER_MINUTE: RateLimit;
  RATE_LIMIT_20_PER_MINUTE: RateLimit;
  RATE_LIMIT_5_PER_MINUTE: RateLimit;
  LIGHTNING_BACKEND?: string;
  /**
   * A local run's stand-in for a payer's wallet when the backend is a real one (`npm start` with nwc sets it
   * to its local wallet): POST /api/dev/invoices/pay asks it to pay. Ignored on a deployed Worker.
   */
  LOCAL_WALLET_URL?: string;
  LNBITS_URL?: string;
  LNBITS_ADMIN_KEY?: string;
  NWC_URL?: string;
  WEBHOOK_SECRET?: string;
  /** The LNbits wallet's webhook secret, for webhooks signed with an `LNbits-Signature` header (optional). */
  LNBITS_WEBHOOK_SECRET?: string;
  ADMIN_PIN?: string;
  ADMIN_PUBKEYS?: string;
  ALIAS_DOMAIN?: string;
  LNURL_OVERRIDES?: string;
  INVOICE_EXPIRY_SECONDS?: string;
  AUTO_RELEASE_DAYS?: string;
  /** Seconds a visitor's public read stays fresh in the edge cache (worker/public-cache.ts); "0" switches it off. */
  PUBLIC_CACHE_SECONDS?: string;
  /** The platform's Nostr key (a secret; 64 hex characters or an nsec) that signs the gig listings; unset: nothing is published. */
  NOSTR_SECRET_KEY?: string;
  /** Comma-separated ws(s):// relays the listings go to; unset: DEFAULT_NOSTR_RELAYS (domain/nostr-relays.ts). */
  NOSTR_RELAYS?: string;
  /** "1" only on a developer's machine (`npm start`, unit tests); never in wrangler.toml (worker/deployment.ts). */
  LOCAL_DEV?: string;
}
