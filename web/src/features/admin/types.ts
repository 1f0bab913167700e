// What the admin API answers (worker/routes/admin.ts, reports.ts).
export interface AdminStats {
  totalEscrow: number;
  totalRevenue: number;
  activeGigs: number;
  openGigs: number;
  completedGigs: number;
  disputedGigs: number;
  totalUsers: number;
}

export interface AdminGig {
  id: string;
  title: string;
  description: string;
  category: string;
  gigType: "job_request" | "service_offering";
  status: string;
  payment: number;
  escrowStatus: string;
  createdAt: string;
  posterId: string;
  hirerId: string | null;
  workerId: string | null;
  disputeReason: string | null;
  disputedBy: string | null;
  resolution: string | null;
  poster: { id: string; username: string; displayName: string | null };
}

export interface AdminReport {
  id: string;
  gigId: string;
  gig: { title: string; status: string; deleted: boolean } | null;
  reporterId: string;
  reporter: { displayName: string | null; username: string | null };
  reason: string;
  details: string | null;
  status: string;
  adminNotes: string | null;
  createdAt: string;
}

export interface AdminSuggestion {
  id: string;
  suggestion: string;
  status: string;
  createdAt: string;
  userId: string | null;
  user: { displayName: string | null; username: string | null } | null;
}

export interface Party {
  id: string;
  username: string;
  displayName: string | null;
}

export interface Dispute {
  gigId: string;
  title: string;
  description: string;
  gigType: string;
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
}

export interface UnreadChat {
  gigId: string;
  gigTitle: string;
  reason: "disputed" | "mention";
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
}

export interface LedgerCheck {
  ok: boolean;
  problems: string[];
  wallet: number;
  escrow: number;
  fees: number;
  payables: number;
}

export interface PayoutProblem {
  id: string;
  gigId: string;
  gigTitle: string | null;
  purpose: string;
  amount: number;
  status: "pending" | "in_flight" | "succeeded" | "failed";
  problem: "failed" | "stuck";
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  destination: string | null;
  recipient: { id: string; username: string | null; displayName: string | null; lightningAddress: string | null };
  createdAt: string;
  updatedAt: string | null;
}

export interface MoneyHealth {
  ledger: LedgerCheck;
  payouts: PayoutProblem[];
  checkedAt: string;
}
