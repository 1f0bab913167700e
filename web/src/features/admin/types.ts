// What the admin API answers (worker/routes/admin.ts, reports.ts): the shared answer types of
// domain/admin-views.ts under the panel's names, and the gig row as the admin list shows it.
export type {
  AdminChatMessage,
  AdminReportView as AdminReport,
  AdminStats,
  AdminSuggestionView as AdminSuggestion,
  DisputeView as Dispute,
  LedgerCheck,
  MoneyHealth,
  NostrOutboxHealth,
  Party,
  PayoutProblem,
  UnreadChat,
} from "../../../../domain/admin-views";

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

