// The one drizzle schema of Gigstr. Each table says what it holds; indexes sit beside it.
// Times are ISO-8601 strings, amounts integer sats, ids UUIDs.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

/** A member: one Nostr public key. Deleting an account scrubs the row and keeps the id for history. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    username: text("username").notNull(),
    nostrPubkey: text("nostr_pubkey"),
    displayName: text("display_name"),
    profilePicture: text("profile_picture"),
    bio: text("bio"),
    nip05: text("nip05"),
    lightningAddress: text("lightning_address"),
    gigstrAlias: text("gigstr_alias"),
    completedGigs: integer("completed_gigs").notNull().default(0),
    successfulGigs: integer("successful_gigs").notNull().default(0),
    averageRating: integer("average_rating").notNull().default(0),
    totalReviews: integer("total_reviews").notNull().default(0),
    deletedAt: text("deleted_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_idx").on(t.username),
    uniqueIndex("users_pubkey_idx").on(t.nostrPubkey),
    uniqueIndex("users_alias_idx").on(t.gigstrAlias),
  ],
);

/** A signed-in browser: only the SHA-256 of its token is kept. */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** A login challenge: single use, 5 minutes; the event that consumed it is remembered so no event is accepted twice. */
export const authChallenges = sqliteTable(
  "auth_challenges",
  {
    id: text("id").primaryKey(),
    challenge: text("challenge").notNull(),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    eventId: text("event_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("auth_challenges_event_idx").on(t.eventId), index("auth_challenges_expiry_idx").on(t.expiresAt)],
);
