// The one drizzle schema of Gigstr. Each table says what it holds; indexes sit beside it.
// Times are ISO-8601 strings, amounts integer sats, ids UUIDs.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { REPORT_REASONS, REPORT_STATUSES } from "../../domain/admin";
import { BUDGET_BANDS, ESCROW_STATUSES, GIG_STATUSES } from "../../domain/gig";
import { MILESTONE_ESCROW } from "../../domain/milestones";

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
    /** "Send my notifications as Nostr DMs": each notification also goes as a NIP-17 private message (docs/decisions/026). */
    nostrDmNotifications: integer("nostr_dm_notifications", { mode: "boolean" }).notNull().default(false),
    /** When the member last turned that on (null while off): the cron's sweep DMs only notifications written since (docs/decisions/045). */
    nostrDmSince: text("nostr_dm_since"),
    deletedAt: text("deleted_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("users_username_idx").on(t.username),
    uniqueIndex("users_pubkey_idx").on(t.nostrPubkey),
    uniqueIndex("users_alias_idx").on(t.gigstrAlias),
  ],
);

/**
 * A signed-in browser: only the SHA-256 of its token is kept. `id` names it to its owner (the sessions
 * list, ending one); `client` is a short label from the browser's User-Agent at sign-in; `lastUsedAt`
 * is refreshed at most every few minutes.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    id: text("id").$defaultFn(() => crypto.randomUUID()),
    userId: text("user_id").notNull().references(() => users.id),
    expiresAt: text("expires_at").notNull(),
    client: text("client"),
    lastUsedAt: text("last_used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), uniqueIndex("sessions_id_idx").on(t.id)],
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

/**
 * A gig. `posterId` is the owner: the hirer of a job_request, the worker of a service_offering.
 * Every change of status is a compare-and-set on (id, status, version) that also stamps
 * `transitionId`, so the rows written with it in the same batch can check that they won.
 */
export const gigs = sqliteTable(
  "gigs",
  {
    id: text("id").primaryKey(),
    gigType: text("gig_type", { enum: ["job_request", "service_offering"] }).notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    category: text("category").notNull(),
    payment: integer("payment").notNull(),
    timeframe: integer("timeframe").notNull(),
    deadline: text("deadline"),
    status: text("status", { enum: GIG_STATUSES }).notNull(),
    escrowStatus: text("escrow_status", { enum: ESCROW_STATUSES }).notNull().default("pending"),
    posterId: text("poster_id").notNull().references(() => users.id),
    hirerId: text("hirer_id").references(() => users.id),
    workerId: text("worker_id").references(() => users.id),
    workSubmission: text("work_submission"),
    revisionNote: text("revision_note"),
    disputeReason: text("dispute_reason"),
    disputedBy: text("disputed_by"),
    resolution: text("resolution"),
    /** The funding invoice the gig is waiting for while pending_payment. */
    fundingInvoiceId: text("funding_invoice_id"),
    /**
     * When the current hirer hired this service offering (null for a job request, and while no one has).
     * A hire that is withdrawn or expires leaves the offer to the next hirer, who sees the gig's chat,
     * files and events from this moment on (worker/services/gig-access.ts).
     */
    hiredAt: text("hired_at"),
    claimedAt: text("claimed_at"),
    submittedAt: text("submitted_at"),
    completedAt: text("completed_at"),
    cancelledAt: text("cancelled_at"),
    fundedAt: text("funded_at"),
    remindersSent: integer("reminders_sent").notNull().default(0),
    /** The milestone the work is on (gig_milestones.number); the gig's status is that milestone's work state. */
    currentMilestone: integer("current_milestone").notNull().default(1),
    /** How many milestones the gig has: 1 for a gig posted without a plan (its implicit milestone). */
    milestoneCount: integer("milestone_count").notNull().default(1),
    version: integer("version").notNull().default(0),
    transitionId: text("transition_id"),
    createdAt: createdAt(),
    /** The payment's position in domain BUDGET_BANDS: computed (payment may change), indexed for the budget filter. */
    budgetBand: integer("budget_band").generatedAlwaysAs(budgetBandSql(), { mode: "virtual" }),
    /**
     * Creation order as an integer, set by a trigger after insert (migrations/0004): the rowid of the
     * text-search index gigs_search (FTS5), so search pages come out of that index newest first.
     */
    searchSeq: integer("search_seq"),
    /**
     * When the gig's events, interest messages, notifications and chat moved into its document in R2
     * (worker/services/archive.ts, decision 033); null while they are here. Its row and money rows stay.
     */
    archivedAt: text("archived_at"),
  },
  (t) => [
    index("gigs_browse_idx").on(t.status, t.createdAt, t.id),
    index("gigs_band_browse_idx").on(t.status, t.budgetBand, t.createdAt, t.id),
    index("gigs_type_band_browse_idx").on(t.status, t.gigType, t.budgetBand, t.createdAt, t.id),
    index("gigs_category_band_browse_idx").on(t.status, t.category, t.budgetBand, t.createdAt, t.id),
    uniqueIndex("gigs_search_seq_idx").on(t.searchSeq),
    index("gigs_type_browse_idx").on(t.status, t.gigType, t.createdAt, t.id),
    index("gigs_category_browse_idx").on(t.status, t.category, t.createdAt, t.id),
    index("gigs_type_category_browse_idx").on(t.status, t.gigType, t.category, t.createdAt, t.id),
    index("gigs_created_idx").on(t.createdAt, t.id),
    index("gigs_poster_idx").on(t.posterId, t.createdAt),
    index("gigs_hirer_idx").on(t.hirerId, t.createdAt),
    index("gigs_worker_idx").on(t.workerId, t.createdAt),
    // The ended gigs not yet archived, by when they ended (the archive cron's question; migrations/0019).
    index("gigs_archive_due_idx").on(sql`coalesce(${t.completedAt}, ${t.cancelledAt})`).where(sql`archived_at IS NULL AND status IN ('completed', 'cancelled')`),
  ],
);

/** CASE payment … END giving the budget band; the bounds are domain/gig.ts BUDGET_BANDS (changing them needs a migration). */
function budgetBandSql() {
  const whens = BUDGET_BANDS.slice(0, -1).map((b, i) => `WHEN payment <= ${b.max} THEN ${i}`);
  return sql.raw(`CASE ${whens.join(" ")} ELSE ${BUDGET_BANDS.length - 1} END`);
}

/** What happened to a gig, in order: the history and the `GET /api/gigs/{id}/events` answer. */
export const gigEvents = sqliteTable(
  "gig_events",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    type: text("type").notNull(),
    actorId: text("actor_id"),
    data: text("data").notNull().default("{}"),
    createdAt: createdAt(),
  },
  (t) => [index("gig_events_gig_idx").on(t.gigId, t.createdAt)],
);

/** Double-entry ledger: every movement of sats; the rows of one transaction sum to zero (services/ledger.ts). */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    txId: text("tx_id").notNull(),
    account: text("account").notNull(),
    amount: integer("amount").notNull(),
    memo: text("memo").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ledger_account_idx").on(t.account), index("ledger_tx_idx").on(t.txId)],
);

/** Lightning invoices the platform issued to fund a gig's escrow. */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    purpose: text("purpose").notNull(),
    payerId: text("payer_id").notNull().references(() => users.id),
    bolt11: text("bolt11").notNull(),
    paymentHash: text("payment_hash").notNull(),
    amount: integer("amount").notNull(),
    expiresAt: text("expires_at").notNull(),
    status: text("status", { enum: ["pending", "paid", "expired"] }).notNull().default("pending"),
    paidAt: text("paid_at"),
    /** Expired here: when the cron next asks the wallet whether it was paid after all (null: no more). */
    lateCheckAt: text("late_check_at"),
    /** How many times the cron asked the wallet about this invoice since it expired. */
    lateChecks: integer("late_checks").notNull().default(0),
    /** The milestone this invoice funds (1 for a gig's first funding, whether or not it has a plan). */
    milestone: integer("milestone").notNull().default(1),
    transitionId: text("transition_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invoices_hash_idx").on(t.paymentHash),
    index("invoices_late_check_idx").on(t.lateCheckAt),
    index("invoices_gig_idx").on(t.gigId, t.createdAt),
    index("invoices_status_idx").on(t.status, t.expiresAt),
  ],
);

/**
 * A gig's milestones (domain/milestones.ts): every gig has at least one (a gig posted without a plan has one
 * implicit milestone, title null, escrowed in `escrow:<gig>`). A milestone's money state changes only in a
 * change whose compare-and-set is on its gig (which bumps the gig's version) or on this row.
 */
export const gigMilestones = sqliteTable(
  "gig_milestones",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    number: integer("number").notNull(),
    /** Null for a gig's implicit milestone (it shows the gig's title). */
    title: text("title"),
    amount: integer("amount").notNull(),
    days: integer("days"),
    escrow: text("escrow", { enum: MILESTONE_ESCROW }).notNull().default("unfunded"),
    /** The ledger account holding this milestone's escrow. */
    escrowAccount: text("escrow_account").notNull(),
    /** The invoice that would fund this milestone (milestones after the first; the first is the gig's own funding). */
    fundingInvoiceId: text("funding_invoice_id"),
    fundedAt: text("funded_at"),
    settledAt: text("settled_at"),
    resolution: text("resolution", { enum: ["approved", "auto_released", "refund_hirer", "pay_worker", "split", "cancelled"] }),
    transitionId: text("transition_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("gig_milestones_gig_number_idx").on(t.gigId, t.number)],
);

/** A proposed change of a gig's unfunded milestones (one party proposes, the other accepts); one pending per gig. */
export const milestoneProposals = sqliteTable(
  "milestone_proposals",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    proposerId: text("proposer_id").notNull().references(() => users.id),
    /** Every milestone from this number on is replaced by the plan. */
    fromNumber: integer("from_number").notNull(),
    /** The proposed milestones, JSON: [{ title, amount, days }]. */
    plan: text("plan").notNull(),
    status: text("status", { enum: ["pending", "accepted", "rejected", "withdrawn"] }).notNull().default("pending"),
    transitionId: text("transition_id"),
    decidedAt: text("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("milestone_proposals_gig_idx").on(t.gigId, t.createdAt),
    uniqueIndex("milestone_proposals_one_pending_idx").on(t.gigId).where(sql`status = 'pending'`),
  ],
);

/**
 * Money the platform owes somebody over Lightning. One row per (gig, milestone, purpose), inserted before any
 * Lightning call; `failed` only on an explicit failure, so an unclear outcome is looked up, never re-paid.
 */
export const payouts = sqliteTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    purpose: text("purpose").notNull(),
    recipientId: text("recipient_id").notNull().references(() => users.id),
    amount: integer("amount").notNull(),
    /** The milestone whose escrow this payout pays out (1 for a gig without a plan, and for a late payment's refund). */
    milestone: integer("milestone").notNull().default(1),
    status: text("status", { enum: ["pending", "in_flight", "succeeded", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: text("next_attempt_at"),
    destination: text("destination"),
    bolt11: text("bolt11"),
    paymentHash: text("payment_hash"),
    preimage: text("preimage"),
    routingFee: integer("routing_fee"),
    /** The most this payout may spend on routing (payoutFeeCap), recorded with the invoice it pays. */
    feeCap: integer("fee_cap"),
    /** Paid, but the wallet charged more than feeCap (a wallet that takes no fee limit, e.g. NWC). */
    overFeeCap: integer("over_fee_cap", { mode: "boolean" }).notNull().default(false),
    /**
     * Why no new invoice is paid until the wallet or the admin acts: `in_doubt` (in flight, an earlier
     * attempt may have sent money: its hashes are looked up again, domain/payout-rule.ts), `fee_over_cap` or
     * `destination_over_cap` (failed, paying would cost more in fees than the cap).
     */
    hold: text("hold", { enum: ["in_doubt", "fee_over_cap", "destination_over_cap"] }),
    /** The claim token of the attempt or look-up working on this payout (AtomicChange's compare-and-set token). */
    transitionId: text("transition_id"),
    /** Until when that claim holds: no other attempt or look-up starts before (longer than any wallet call). */
    claimedUntil: text("claimed_until"),
    updatedAt: text("updated_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("payouts_gig_milestone_purpose_idx").on(t.gigId, t.milestone, t.purpose),
    index("payouts_status_idx").on(t.status, t.nextAttemptAt),
    index("payouts_recipient_idx").on(t.recipientId),
    index("payouts_destination_idx").on(t.destination, t.overFeeCap),
    index("payouts_over_cap_recipient_idx").on(t.overFeeCap, t.recipientId),
  ],
);

/** An interest message a non-owner sends before claiming (SPEC.md "pre-claim message"); one per user per gig. */
export const preClaimMessages = sqliteTable(
  "pre_claim_messages",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    senderId: text("sender_id").notNull().references(() => users.id),
    message: text("message").notNull(),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    claimEnabled: integer("claim_enabled", { mode: "boolean" }).notNull().default(false),
    transitionId: text("transition_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("pre_claim_gig_sender_idx").on(t.gigId, t.senderId), index("pre_claim_sender_idx").on(t.senderId)],
);

/** What a member is told about (the bell). `type` 'message' opens the chat. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    gigId: text("gig_id"),
    type: text("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    actorId: text("actor_id"),
    isRead: integer("is_read", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.userId, t.createdAt), index("notifications_unread_idx").on(t.userId, t.isRead)],
);

/** The dev Lightning backend's own node: invoices it issued and payments it made (LIGHTNING_BACKEND=dev only). */
export const devLightningInvoices = sqliteTable(
  "dev_lightning_invoices",
  {
    paymentHash: text("payment_hash").primaryKey(),
    recipient: text("recipient"),
    status: text("status").notNull(),
    record: text("record").notNull(),
  },
  (t) => [index("dev_invoices_recipient_idx").on(t.recipient, t.status)],
);

export const devLightningPayments = sqliteTable("dev_lightning_payments", {
  paymentHash: text("payment_hash").primaryKey(),
  record: text("record").notNull(),
});

/**
 * A one-time upload URL (`PUT /api/objects/upload/<token>`, 15 minutes) and, once used, the object it
 * put in R2. Only the SHA-256 of the token is kept; the upload belongs to the member who asked for it.
 */
export const uploads = sqliteTable(
  "uploads",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull(),
    ownerId: text("owner_id").notNull().references(() => users.id),
    objectKey: text("object_key").notNull(),
    filename: text("filename"),
    contentType: text("content_type"),
    /** Bytes actually stored (set when the PUT completes). */
    size: integer("size"),
    expiresAt: text("expires_at").notNull(),
    /** Set when a PUT claims the token; a token is claimed once, whatever the outcome. */
    usedAt: text("used_at"),
    /** Set when the object is safely in R2; only completed uploads can be attached. */
    completedAt: text("completed_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("uploads_token_idx").on(t.tokenHash), index("uploads_owner_idx").on(t.ownerId), index("uploads_expiry_idx").on(t.expiresAt)],
);

/** A file linked to a gig (a work delivery or a chat file), made from exactly one completed upload. */
export const attachments = sqliteTable(
  "attachments",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    ownerId: text("owner_id").notNull().references(() => users.id),
    uploadId: text("upload_id").notNull().references(() => uploads.id),
    objectKey: text("object_key").notNull(),
    filename: text("filename").notNull(),
    fileSize: integer("file_size").notNull(),
    mimeType: text("mime_type").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("attachments_upload_idx").on(t.uploadId), index("attachments_gig_idx").on(t.gigId, t.createdAt)],
);

/**
 * A message in a gig's chat room, as stored before each gig's room kept its own (decision 031). No new rows
 * are written here; the chat move (worker/services/chat-move.ts) copies these into the rooms and deletes them.
 * The platform admin's messages have no sender id and sender_type 'admin'.
 */
export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    senderId: text("sender_id").references(() => users.id),
    senderType: text("sender_type", { enum: ["user", "admin"] }).notNull(),
    message: text("message").notNull(),
    attachmentId: text("attachment_id").references(() => attachments.id),
    createdAt: createdAt(),
  },
  (t) => [
    index("chat_messages_gig_idx").on(t.gigId, t.createdAt, t.id),
    // Members' messages that mention @admin (worker/services/admin-chat.ts): the admin's unread chats start
    // from these and the disputed gigs instead of scanning every message.
    index("chat_messages_admin_mention_idx").on(t.gigId, t.createdAt).where(sql`sender_type = 'user' AND message LIKE '%@admin%'`),
  ],
);

/**
 * What D1 knows of a gig's chat, whose messages its GigRoom keeps (decision 031): one row per gig that has a
 * message, written with each message's notifications. The admin's unread chats read it: the members' messages
 * (how many, the newest) against admin_chat_reads, and the newest member's message that mentions @admin.
 */
export const gigChatSummaries = sqliteTable(
  "gig_chat_summaries",
  {
    gigId: text("gig_id").primaryKey().references(() => gigs.id),
    messageCount: integer("message_count").notNull().default(0),
    lastMessageId: text("last_message_id"),
    lastMessageAt: text("last_message_at"),
    lastSenderId: text("last_sender_id"),
    lastSenderType: text("last_sender_type", { enum: ["user", "admin"] }),
    memberMessageCount: integer("member_message_count").notNull().default(0),
    lastMemberMessageAt: text("last_member_message_at"),
    lastMentionAt: text("last_mention_at"),
  },
  // The admin's unread chats start from the few gigs with a mention (and the disputed ones), never every chat.
  (t) => [index("gig_chat_summaries_mention_idx").on(t.lastMentionAt).where(sql`last_mention_at IS NOT NULL`)],
);

/** A worker's request for more days on a claimed or in-progress gig; one pending at a time per gig. */
export const extensionRequests = sqliteTable(
  "extension_requests",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    requesterId: text("requester_id").notNull().references(() => users.id),
    daysToAdd: integer("days_to_add").notNull(),
    reason: text("reason"),
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull().default("pending"),
    transitionId: text("transition_id"),
    decidedAt: text("decided_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("extension_requests_gig_idx").on(t.gigId, t.createdAt),
    // At most one pending request per gig, enforced by the database.
    uniqueIndex("extension_requests_one_pending_idx").on(t.gigId).where(sql`status = 'pending'`),
  ],
);

/** A review one party of a gig writes about the other; once per reviewer per gig. */
export const reviews = sqliteTable(
  "reviews",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull().references(() => gigs.id),
    reviewerId: text("reviewer_id").notNull().references(() => users.id),
    revieweeId: text("reviewee_id").notNull().references(() => users.id),
    rating: integer("rating").notNull(),
    comment: text("comment"),
    /** The review as the reviewer signed it (a kind 1985 Nostr event, JSON; docs/decisions/028), or null: not verified. */
    nostrEvent: text("nostr_event"),
    /** That event's id (hex), for the link to it. */
    nostrEventId: text("nostr_event_id"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("reviews_gig_reviewer_idx").on(t.gigId, t.reviewerId), index("reviews_reviewee_idx").on(t.revieweeId, t.createdAt)],
);

/** A member's report of a gig to the admin. */
export const gigReports = sqliteTable(
  "gig_reports",
  {
    id: text("id").primaryKey(),
    gigId: text("gig_id").notNull(),
    reporterId: text("reporter_id").notNull().references(() => users.id),
    reason: text("reason", { enum: REPORT_REASONS }).notNull(),
    details: text("details"),
    status: text("status", { enum: REPORT_STATUSES }).notNull().default("pending"),
    adminNotes: text("admin_notes"),
    createdAt: createdAt(),
  },
  (t) => [index("gig_reports_status_idx").on(t.status, t.createdAt), index("gig_reports_gig_idx").on(t.gigId)],
);

/** The suggestion box. */
export const suggestions = sqliteTable(
  "suggestions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id),
    suggestion: text("suggestion").notNull(),
    status: text("status", { enum: ["pending", "reviewed", "implemented", "rejected"] }).notNull().default("pending"),
    createdAt: createdAt(),
  },
  (t) => [index("suggestions_created_idx").on(t.createdAt)],
);

/** Work a member shows on their public profile. */
export const portfolioItems = sqliteTable(
  "portfolio_items",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull().references(() => users.id),
    title: text("title").notNull(),
    description: text("description"),
    imageUrl: text("image_url"),
    projectUrl: text("project_url"),
    category: text("category"),
    createdAt: createdAt(),
  },
  (t) => [index("portfolio_user_idx").on(t.userId, t.createdAt)],
);

/** Per Lightning backend: its last answered call and its last error (Money Health). */
export const backendStatus = sqliteTable("backend_status", {
  backend: text("backend").primaryKey(),
  lastOkAt: text("last_ok_at"),
  lastOkCall: text("last_ok_call"),
  lastErrorAt: text("last_error_at"),
  lastErrorCall: text("last_error_call"),
  lastError: text("last_error"),
});

/** Each attempt to pay a payout and how it ended: the admin reads a payout's history of destinations here. */
export const payoutAttempts = sqliteTable(
  "payout_attempts",
  {
    id: text("id").primaryKey(),
    payoutId: text("payout_id").notNull().references(() => payouts.id),
    attempt: integer("attempt").notNull(),
    destination: text("destination"),
    /**
     * An attempt that handed an invoice to the wallet (it has a payment hash): sending → succeeded |
     * failed (known never sent) | unknown (in doubt) → succeeded | failed | marked_failed (by the admin).
     * Without a payment hash, a note of the payout's history: failed (no invoice was paid) or held.
     */
    outcome: text("outcome", { enum: ["sending", "succeeded", "failed", "held", "unknown", "marked_failed"] }).notNull(),
    detail: text("detail"),
    routingFee: integer("routing_fee"),
    /** The invoice this attempt paid and its payment hash: kept for ever, looked up before any new invoice is paid. */
    bolt11: text("bolt11"),
    paymentHash: text("payment_hash"),
    /** The payout's claim token when this attempt was made: only that claim may write its outcome. */
    claim: text("claim"),
    createdAt: createdAt(),
  },
  (t) => [index("payout_attempts_payout_idx").on(t.payoutId, t.createdAt)],
);

/** An admin sign-in: only the SHA-256 of the token is kept; 12 hours. */
export const adminSessions = sqliteTable("admin_sessions", {
  tokenHash: text("token_hash").primaryKey(),
  expiresAt: text("expires_at").notNull(),
  /** The ADMIN_PUBKEYS key (hex) whose member session opened it; null for a PIN-only sign-in on a local run. */
  pubkey: text("pubkey"),
  createdAt: createdAt(),
});

/** Failed admin PIN tries, per client, for the lockout (DESIGN.md §6). */
export const adminLoginFailures = sqliteTable(
  "admin_login_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    client: text("client").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("admin_login_failures_client_idx").on(t.client, t.createdAt), index("admin_login_failures_created_idx").on(t.createdAt)],
);

/**
 * Up to when the admin has read each gig's chat (for the unread-chats view), and how many members' messages
 * that was: the summary's member_message_count less this is what is unread.
 */
export const adminChatReads = sqliteTable("admin_chat_reads", {
  gigId: text("gig_id").primaryKey(),
  lastReadAt: text("last_read_at").notNull(),
  memberMessagesRead: integer("member_messages_read").notNull().default(0),
});

/**
 * The Nostr outbox (docs/decisions/025): every event the platform's key signs is a row here before any relay
 * sees it, keyed by the event's id (so enqueueing one twice is one row). The cron sends due rows to the relays
 * of NOSTR_RELAYS, backing off between attempts; a relay's OK true is recorded in `relays`.
 */
export const nostrOutbox = sqliteTable(
  "nostr_outbox",
  {
    /** The signed event's id. */
    id: text("id").primaryKey(),
    kind: integer("kind").notNull(),
    /** The addressable event it is or deletes (`kind:pubkey:d`): a listing, its deletion, the handler announcement. */
    address: text("address"),
    gigId: text("gig_id"),
    /** The gig's version the event was made from: an older version never follows a newer one. */
    gigVersion: integer("gig_version"),
    /** A NIP-17 gift wrap's recipient (hex key): it goes to their DM relays (kind 10050), else NOSTR_RELAYS (docs/decisions/026). */
    recipient: text("recipient"),
    /** The notification a gift wrap carries: one wrap per notification. */
    notificationId: text("notification_id"),
    /** The event's created_at (unix seconds): strictly increasing per address. */
    eventCreatedAt: integer("event_created_at").notNull(),
    /** The signed event (JSON). */
    event: text("event").notNull(),
    /** JSON: each relay tried → "ok", or its last error. */
    relays: text("relays").notNull().default("{}"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    /** When a relay first took it (OK true). */
    publishedAt: text("published_at"),
    /** Nothing more to send: every relay took it, a newer event replaced it, or the rest gave up after one took it. */
    doneAt: text("done_at"),
    lastError: text("last_error"),
    updatedAt: text("updated_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("nostr_outbox_due_idx").on(t.nextAttemptAt).where(sql`done_at IS NULL`),
    index("nostr_outbox_address_idx").on(t.address, t.eventCreatedAt),
    index("nostr_outbox_kind_idx").on(t.kind, t.eventCreatedAt),
    uniqueIndex("nostr_outbox_notification_idx").on(t.notificationId),
  ],
);

/**
 * A member's DM relays as their kind 10050 list said when last looked up (docs/decisions/026): the cron's
 * sender reads it instead of asking the relays again for a while. `relays` is a JSON array; [] = no list found.
 */
export const nostrDmRelays = sqliteTable("nostr_dm_relays", {
  pubkey: text("pubkey").primaryKey(),
  relays: text("relays").notNull(),
  checkedAt: text("checked_at").notNull(),
});
