// The administrator's vocabulary and input rules (SPEC.md §3 Admin entities, §4, §5, §9), shared by the
// Worker's admin routes and the admin panel. Members' reports and suggestions are here too: the admin
// reads them.
import { z } from "./zod";
import { chatMessageText } from "./chat-protocol";

export const ADMIN_PIN_LENGTH = 6;
/** The header the admin token travels in (SPEC.md §6). */
export const ADMIN_TOKEN_HEADER = "x-admin-token";

export const REPORT_REASONS = [
  "illegal_content",
  "harassment",
  "sexual_content",
  "scam",
  "fake_credentials",
  "shitcoinery",
  "spam",
  "hate_speech",
  "doxxing",
  "manipulation",
  "other",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  illegal_content: "Illegal content",
  harassment: "Harassment",
  sexual_content: "Sexual content",
  scam: "Scam or fraud",
  fake_credentials: "False credentials",
  shitcoinery: "Shitcoinery",
  spam: "Spam",
  hate_speech: "Hate speech",
  doxxing: "Doxxing",
  manipulation: "Platform manipulation",
  other: "Other violation",
};

export const REPORT_STATUSES = ["pending", "under_review", "resolved", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const SUGGESTION_STATUSES = ["pending", "reviewed", "implemented", "rejected"] as const;
export type SuggestionStatus = (typeof SUGGESTION_STATUSES)[number];

export const DISPUTE_RESOLUTIONS = ["refund_hirer", "pay_worker", "split"] as const;
export type DisputeResolution = (typeof DISPUTE_RESOLUTIONS)[number];

export const adminPinSchema = z.object({
  pin: z.string({ error: "Please enter the 6-digit PIN" }).max(64, "Incorrect PIN"),
});

export const gigReportSchema = z.object({
  gigId: z.string({ error: "gigId is required" }).min(1, "gigId is required").max(64, "Gig not found"),
  reason: z.enum(REPORT_REASONS, { error: "Please select a reason" }),
  details: z
    .string({ error: "Details must be text" })
    .trim()
    .max(5000, "Details must be at most 5,000 characters")
    .transform((d) => (d === "" ? undefined : d))
    .nullish(),
});

export const reportUpdateSchema = z
  .object({
    status: z.enum(REPORT_STATUSES, { error: "Status must be pending, under_review, resolved or dismissed" }).optional(),
    adminNotes: z.string({ error: "Notes must be text" }).trim().max(5000, "Notes must be at most 5,000 characters").nullish(),
  })
  .refine((u) => u.status !== undefined || u.adminNotes !== undefined, "Nothing to update: send status or adminNotes");

export const suggestionText = z
  .string({ error: "Please enter your suggestion or feature request" })
  .trim()
  .min(1, "Please enter your suggestion or feature request")
  .max(5000, "Suggestions must be at most 5,000 characters");

export const suggestionSchema = z.object({ suggestion: suggestionText });

export const suggestionUpdateSchema = z.object({
  status: z.enum(SUGGESTION_STATUSES, { error: "Status must be pending, reviewed, implemented or rejected" }),
});

const sharePercent = z
  .number({ error: "workerSharePercent must be a whole number from 0 to 100" })
  .int("workerSharePercent must be a whole number from 0 to 100")
  .min(0, "workerSharePercent must be a whole number from 0 to 100")
  .max(100, "workerSharePercent must be a whole number from 0 to 100");

/**
 * A dispute concerns the current milestone only (issue 28). With `endGig` the admin also ends the gig there:
 * every later funded milestone is refunded in full. Settling the last milestone always ends the gig.
 */
const endGig = z.boolean({ error: "endGig must be true or false" }).optional();

export const disputeResolutionSchema = z.discriminatedUnion(
  "resolution",
  [
    z.object({ resolution: z.literal("refund_hirer"), endGig: endGig }),
    z.object({ resolution: z.literal("pay_worker"), endGig: endGig }),
    z.object({ resolution: z.literal("split"), workerSharePercent: sharePercent, endGig: endGig }),
  ],
  { error: "resolution must be refund_hirer, pay_worker or split" },
);
export type DisputeResolutionInput = z.infer<typeof disputeResolutionSchema>;

/** An admin's chat message: the same text rule as every chat message (SPEC.md §5 Admin message). */
export const adminMessageSchema = z.object({ message: chatMessageText });

/** Who the admin chat lists as a reason to look (SPEC.md §3 Admin unread-chat notification). */
export type UnreadChatReason = "disputed" | "mention";

/** The dispute description in the admin's gig list is cut at 150 characters (SPEC.md §9). */
export const DISPUTE_PREVIEW_LENGTH = 150;
export function truncateDispute(text: string | null | undefined): string {
  if (!text) return "";
  return text.length > DISPUTE_PREVIEW_LENGTH ? `${text.slice(0, DISPUTE_PREVIEW_LENGTH)}...` : text;
}

/** POST /api/admin/payouts/{id}/mark-failed: every payment hash in doubt, checked on the node (64 hex digits each). */
export const markPayoutFailedSchema = z.object({
  paymentHashes: z
    .array(z.string().regex(/^[0-9a-f]{64}$/, "Each payment hash is 64 hex digits"), { error: "paymentHashes must list the payment hashes you checked" })
    .min(1, "Name the payment hashes you checked on the node")
    .max(50, "At most 50 payment hashes"),
});
