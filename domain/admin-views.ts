// What the admin API answers (SPEC.md §3 Admin entities): the Worker's admin services build these,
// the admin panel reads them. Types only.
import type { ReportReason, ReportStatus, UnreadChatReason } from "./admin";
import type { GigStatus } from "./gig";

export type Party = { id: string; username: string; displayName: string | null };

/** One field of a gig changed by an edit (the gig's `edited` event keeps these). */
export interface GigEditChange {
  field: "title" | "description" | "payment";
  from: string | number;
  to: string | number;
}

/** An edit of the gig, as its event log keeps it: who, when, and what changed. */
export interface GigEditRecord {
  at: string;
  by: Party | null;
  /** Whether the escrow was funded when the edit was made. */
  afterFunding: boolean;
  changes: GigEditChange[];
}

/** The milestone a dispute concerns (a gig with a plan; null for a gig without one). */
export interface DisputedMilestone {
  number: number;
  count: number;
  title: string;
  amount: number;
  /** Sats its escrow account holds now. */
  escrow: number;
  /** Sats of later milestones already funded: refunded in full if the admin ends the gig here. */
  laterFunded: number;
}

export interface DisputeView {
  gigId: string;
  title: string;
  description: string;
  gigType: string;
  milestone: DisputedMilestone | null;
  /** What the dispute divides: the disputed milestone's amount (the gig's payment without a plan), its fees and payout. */
  payment: number;
  totalCharge: number;
  workerPayout: number;
  platformFee: number;
  disputeReason: string | null;
  disputedBy: Party | null;
  workSubmission: string | null;
  submittedAt: string | null;
  hirer: Party | null;
  worker: Party | null;
  createdAt: string;
  /** The gig's edits that changed something, oldest first. */
  edits: GigEditRecord[];
}

export interface PayoutProblem {
  id: string;
  gigId: string;
  gigTitle: string | null;
  purpose: string;
  amount: number;
  status: "pending" | "in_flight" | "succeeded" | "failed";
  /**
   * failed; stuck (pending or in flight for more than 5 minutes); needs_look (held in doubt: some earlier
   * attempt may have sent money — the wallet could not tell, a connection dropped, an error came after the
   * request left — so no new invoice is paid; its hashes, `doubtfulHashes`, are looked up again by the cron,
   * and the admin may mark it failed after checking the node); fee_over_cap (held: routing
   * would cost more than its cap, or its destination went over the cap twice; the admin's retry pays
   * anyway, up to max(10 sats, 1 %)); paid_over_cap (paid, but the wallet charged more than the cap).
   */
  problem: "failed" | "stuck" | "needs_look" | "fee_over_cap" | "paid_over_cap";
  hold: "in_doubt" | "fee_over_cap" | "destination_over_cap" | null;
  /** The latest attempt's payment hash. */
  paymentHash: string | null;
  /**
   * The payment hashes of the attempts in doubt (may have sent money): what the admin checks on the node
   * before "Mark failed", and must name in that request. Empty unless the payout is held in doubt.
   */
  doubtfulHashes: string[];
  routingFee: number | null;
  feeCap: number | null;
  /** Every attempt so far, oldest first: where it went and how it ended. */
  history: PayoutAttemptView[];
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  destination: string | null;
  recipient: { id: string; username: string | null; displayName: string | null; lightningAddress: string | null };
  createdAt: string;
  updatedAt: string | null;
}

export interface PayoutAttemptView {
  attempt: number;
  destination: string | null;
  /**
   * sending: handed to the wallet, no answer yet; succeeded; failed: nothing was sent (the wallet refused
   * before sending, the node reports it failed, or no invoice was paid at all); held: not tried (fees over
   * the cap); unknown: in doubt, looked up again; marked_failed: the admin checked the node and marked it failed.
   */
  outcome: "sending" | "succeeded" | "failed" | "held" | "unknown" | "marked_failed";
  /** The invoice's payment hash, for attempts that handed an invoice to the wallet. */
  paymentHash: string | null;
  detail: string | null;
  at: string;
}

/** A Lightning backend's last answered call and last error, as recorded by the Worker. */
export interface BackendCallStatus {
  backend: string;
  lastOkAt: string | null;
  lastOkCall: string | null;
  lastErrorAt: string | null;
  lastErrorCall: string | null;
  lastError: string | null;
}

export interface MoneyHealth {
  ledger: LedgerCheck;
  /** Each backend that has been called: its last answer and last error. */
  backends: BackendCallStatus[];
  /** The wallet's own check (LNbits: can its key pay?), when the backend has one. */
  wallet: { ok: boolean; checkedAt: string; problem?: string; balanceSats?: number } | null;
  payouts: PayoutProblem[];
  checkedAt: string;
}

export interface AdminReportView {
  id: string;
  gigId: string;
  /** The reported gig; `deleted` once the admin deleted it. */
  gig: { title: string; status: GigStatus; deleted: boolean } | null;
  reporterId: string;
  reporter: { displayName: string | null; username: string | null };
  reason: ReportReason;
  details: string | null;
  status: ReportStatus;
  adminNotes: string | null;
  createdAt: string;
}

export interface AdminStats {
  /** Sats held in escrow for gigs: Σ of every escrow account of the ledger. */
  totalEscrow: number;
  /** The platform's fees account: 2.5 % per side of released gigs, less routing fees paid. */
  totalRevenue: number;
  /** Gigs being worked on: claimed, in_progress, needs_revision, work_submitted. */
  activeGigs: number;
  /** Funded (or unfunded service) listings waiting for a worker or a hirer. */
  openGigs: number;
  completedGigs: number;
  disputedGigs: number;
  /** Members whose account is not deleted. */
  totalUsers: number;
  /** The Nostr outbox (gig listings on their way to the relays). */
  nostrOutbox: NostrOutboxHealth;
}

/** The Nostr outbox as the admin's dashboard shows it (worker/services/nostr-outbox.ts). */
export interface NostrOutboxHealth {
  /** Events no relay has taken yet. */
  pending: number;
  /** Of those, the ones tried many times or waiting long: relays refuse them or cannot be reached. */
  stuck: number;
  /** The newest error of an event still being sent, or null. */
  lastError: string | null;
  /** Why nothing is published at all (NOSTR_SECRET_KEY unset or unreadable, a bad NOSTR_RELAYS), or null. */
  off: string | null;
}

export interface UnreadChat {
  gigId: string;
  gigTitle: string;
  reason: UnreadChatReason;
  /** Members' messages since the admin last read this chat. */
  messageCount: number;
  lastMessageTime: string;
}

export interface AdminChatMessage {
  id: string;
  gigId: string;
  message: string;
  senderType: "user" | "admin";
  senderId: string | null;
  sender: { displayName: string | null; username: string | null };
  createdAt: string;
  attachmentId: string | null;
}

export interface AdminSuggestionView {
  id: string;
  suggestion: string;
  status: string;
  createdAt: string;
  userId: string | null;
  user: { displayName: string | null; username: string | null } | null;
}

export interface LedgerCheck {
  ok: boolean;
  problems: string[];
  wallet: number;
  escrow: number;
  fees: number;
  payables: number;
}
