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
  /** The admin's post (text already checked): stored by the room in its turn, its notifications written, broadcast. */
  postAdminMessage(gigId: string, text: string): Promise<ChatMessageView>;
  /** A page of the gig's stored messages, newest first (decision 031: each gig's room keeps its chat). */
  chatMessages(query: RoomHistoryQuery): Promise<RoomChatMessage[]>;
  /** How many members' messages the room holds up to `at` (the admin's read mark counts them). */
  memberMessagesUpTo(at: string): Promise<number>;
  /** The chat move: keeps these messages by id, ignoring ids it holds; answers the ids it holds of them. */
  importChatMessages(gigId: string, messages: RoomChatMessage[]): Promise<string[]>;
  /** The chat move's end for a gig: the gig's D1 summary written from what the room holds, in the room's turn. */
  settleChatSummary(gigId: string): Promise<void>;
  /** Deletes the stored messages named (an archive holds them), or every one when none are named. */
  forgetChat(ids?: string[]): Promise<void>;
}

/** A chat message as a gig's room stores it: who, what and when; names and files are read from D1 when shown. */
export interface RoomChatMessage {
  id: string;
  senderId: string | null;
  senderType: "user" | "admin";
  message: string;
  attachmentId: string | null;
  createdAt: string;
}

/** Which of a room's messages: from `since` on (a re-hire's hirer), before a cursor, at most `limit` (none: all). */
export interface RoomHistoryQuery {
  since?: string | null;
  before?: { createdAt: string; id: string } | null;
  limit?: number | null;
}

/** A session as a sign-in hands it to the member's inbox (times in ms). */
export interface OpenedSession {
  id: string;
  expiresAt: number;
  nostrPubkey: string | null;
  /** When the sign-in began: a "sign out everywhere" after it refuses the session. */
  openedAt: number;
}

/** What the member's inbox answers for a live session; `touched`: its "last used" is due to be written. */
export interface InboxSession {
  sessionId: string;
  nostrPubkey: string | null;
  expiresAt: number;
  touched: boolean;
}

/**
 * What the Worker asks of a member's inbox (durable-objects/member-inbox.ts): their open tabs' sockets, and
 * their live sessions (keyed by the SHA-256 of a token's secret), checked there on every request (decision 032).
 */
export interface MemberInboxApi extends Rpc.DurableObjectBranded {
  /** New notifications for this member were written: tell the open tabs (each with the unread count after it). */
  announce(notificationIds: string[]): Promise<void>;
  openSession(tokenKey: string, session: OpenedSession): Promise<boolean>;
  /** `sealedToken`: the token itself when it is sealed (docs/decisions/035), so a session not held yet can be taken in. */
  checkSession(tokenKey: string, sealedToken?: string | null, now?: number): Promise<InboxSession | null>;
  endSessionByKey(tokenKey: string, sessionId?: string): Promise<void>;
  endSessionById(sessionId: string): Promise<boolean>;
  endAllSessions(at: number): Promise<void>;
  accountRemoved(): Promise<void>;
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
  /** Days after a gig ended (completed, cancelled, refunded) before the cron moves its history to R2 (worker/services/archive.ts). */
  ARCHIVE_AFTER_DAYS?: string;
  /** Seconds a visitor's public read stays fresh in the edge cache (worker/public-cache.ts); "0" switches it off. */
  PUBLIC_CACHE_SECONDS?: string;
  /** The platform's Nostr key (a secret; 64 hex characters or an nsec) that signs the gig listings; unset: nothing is published. */
  NOSTR_SECRET_KEY?: string;
  /** Comma-separated ws(s):// relays the listings go to; unset: DEFAULT_NOSTR_RELAYS (domain/nostr-relays.ts). */
  NOSTR_RELAYS?: string;
  /** "1" only on a developer's machine (`npm start`, unit tests); never in wrangler.toml (worker/deployment.ts). */
  LOCAL_DEV?: string;
}
