// The gig's input rules (SPEC.md §5), shared by the web forms and the Worker's routes.
import { z } from "./zod";
import { CATEGORIES, DEFAULT_TIMEFRAME, GIG_TYPES, MAX_TIMEFRAME, MIN_TIMEFRAME } from "./gig";
import { MAX_PAYMENT, MIN_PAYMENT } from "./fees";
import { MAX_MILESTONES, MIN_MILESTONES, planTotal } from "./milestones";

const title = z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(100, "Title must be less than 100 characters");
const description = z
  .string({ error: "Description must be at least 10 characters" })
  .trim()
  .min(10, "Description must be at least 10 characters")
  .max(1000, "Description must be less than 1000 characters");
const payment = z
  .number({ error: "Minimum payment is 1 sat" })
  .int("Payment must be a whole number of sats")
  .min(MIN_PAYMENT, "Minimum payment is 1 sat")
  .max(MAX_PAYMENT, "Maximum payment is 1,000,000 sats");

/** One milestone of a plan (issue 28): a title, at least the minimum payment, and optionally its days. */
export const milestoneItemSchema = z.object({
  title: z.string({ error: "Milestone title is required" }).trim().min(1, "Milestone title is required").max(100, "Milestone title must be less than 100 characters"),
  amount: z
    .number({ error: "Each milestone needs an amount of at least 1 sat" })
    .int("Milestone amounts must be whole numbers of sats")
    .min(MIN_PAYMENT, "Each milestone needs an amount of at least 1 sat")
    .max(MAX_PAYMENT, "Maximum payment is 1,000,000 sats"),
  days: z
    .number({ error: "Milestone days must be a number" })
    .int("Milestone days must be a whole number")
    .min(MIN_TIMEFRAME, "Milestone days must be from 1 to 30")
    .max(MAX_TIMEFRAME, "Milestone days must be from 1 to 30")
    .nullish(),
});

const MILESTONE_COUNT_ERROR = `A plan has ${MIN_MILESTONES} to ${MAX_MILESTONES} milestones`;

/** A whole plan: 2 to 10 milestones whose sum is a payment the fee rules accept. */
export const milestonePlanSchema = z
  .array(milestoneItemSchema, { error: MILESTONE_COUNT_ERROR })
  .min(MIN_MILESTONES, MILESTONE_COUNT_ERROR)
  .max(MAX_MILESTONES, MILESTONE_COUNT_ERROR)
  .refine((plan) => planTotal(plan) <= MAX_PAYMENT, "Maximum payment is 1,000,000 sats");

/** A proposed change of a plan's unfunded milestones: the new list for every milestone from the first unfunded on. */
export const milestoneProposalSchema = z.object({
  /** The first milestone the proposer's screen showed as changeable: refused (409) when it no longer is. */
  fromNumber: z.number({ error: "fromNumber must be a milestone number" }).int("fromNumber must be a milestone number").min(1, "fromNumber must be a milestone number").optional(),
  milestones: z
    .array(milestoneItemSchema, { error: "Propose at least one milestone" })
    .min(1, "Propose at least one milestone")
    .max(MAX_MILESTONES - 1, MILESTONE_COUNT_ERROR),
});

/** The Post New Gig form, shared by the web form and POST /api/gigs. */
export const gigFormSchema = z.object({
  gigType: z.enum(GIG_TYPES, { error: "Gig type must be job_request or service_offering" }).default("job_request"),
  title,
  description,
  category: z.enum(CATEGORIES, { error: "Category is required" }),
  payment,
  timeframe: z
    .number({ error: "Minimum timeframe is 1 day" })
    .int("Timeframe must be a whole number of days")
    .min(MIN_TIMEFRAME, "Minimum timeframe is 1 day")
    .max(MAX_TIMEFRAME, "Maximum timeframe is 30 days")
    .default(DEFAULT_TIMEFRAME),
  /** Optional: paid step by step. Their amounts add up to the payment. */
  milestones: milestonePlanSchema.optional(),
}).refine((form) => !form.milestones || planTotal(form.milestones) === form.payment, {
  message: "The milestones must add up to the payment",
  path: ["milestones"],
});
export type GigForm = z.infer<typeof gigFormSchema>;

/** PATCH /api/gigs/{id}: title and description; budget only for the owner of an unfunded service offering. */
export const gigEditSchema = z
  .object({ title: title.optional(), description: description.optional(), budget: payment.optional() })
  .refine((v) => v.title !== undefined || v.description !== undefined || v.budget !== undefined, "Nothing to update");

export const workSubmissionText = z
  .string({ error: "Work submission required - Please provide details of your completed work." })
  .trim()
  .min(1, "Work submission required - Please provide details of your completed work.")
  .max(10_000, "Work submission must be at most 10,000 characters");

export const disputeReasonText = z
  .string({ error: "Please describe the reason for the dispute" })
  .trim()
  .min(1, "Please describe the reason for the dispute")
  .max(2000, "Dispute reason must be at most 2,000 characters");

export const revisionNoteText = z
  .string({ error: "Please describe what needs to change" })
  .trim()
  .min(1, "Please describe what needs to change")
  .max(2000, "Revision note must be at most 2,000 characters");

export const interestMessageText = z
  .string({ error: "Message Required: Please write a message to express your interest." })
  .trim()
  .min(1, "Message Required: Please write a message to express your interest.")
  .max(2000, "Message must be at most 2,000 characters");
