// Input rules for extensions, reviews and portfolio items (SPEC.md §5), shared by web and Worker.
import { z } from "./zod";

export const EXTENSION_PRESETS = [1, 3, 7, 14] as const;
export const MAX_EXTENSION_DAYS = 30;

export const extensionRequestSchema = z.object({
  daysToAdd: z
    .number({ error: "Days to add must be at least 1" })
    .int("Days to add must be a whole number")
    .min(1, "Days to add must be at least 1")
    .max(MAX_EXTENSION_DAYS, `Days to add must be at most ${MAX_EXTENSION_DAYS}`),
  reason: z
    .string()
    .trim()
    .max(1000, "Reason must be at most 1,000 characters")
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
});

export const extendDeadlineSchema = z.object({
  newDeadline: z.iso.datetime({ offset: true, error: "newDeadline must be an ISO date and time" }),
});

export const INVALID_SIGNED_EVENT = "event must be a signed Nostr event";

const hexOf = (length: number) => z.string({ error: INVALID_SIGNED_EVENT }).regex(new RegExp(`^[0-9a-f]{${length}}$`), INVALID_SIGNED_EVENT);

/** A signed Nostr event's shape (NIP-01); whether its id and signature are right is nostr-tools' verifyEvent's to say. */
export const signedEventSchema = z.object(
  {
    id: hexOf(64),
    pubkey: hexOf(64),
    created_at: z.number({ error: INVALID_SIGNED_EVENT }).int(INVALID_SIGNED_EVENT).min(0, INVALID_SIGNED_EVENT),
    kind: z.number({ error: INVALID_SIGNED_EVENT }).int(INVALID_SIGNED_EVENT).min(0, INVALID_SIGNED_EVENT).max(65535, INVALID_SIGNED_EVENT),
    tags: z.array(z.array(z.string({ error: INVALID_SIGNED_EVENT }).max(2100, INVALID_SIGNED_EVENT)).max(10, INVALID_SIGNED_EVENT), { error: INVALID_SIGNED_EVENT }).max(30, INVALID_SIGNED_EVENT),
    content: z.string({ error: INVALID_SIGNED_EVENT }).max(8000, INVALID_SIGNED_EVENT),
    sig: hexOf(128),
  },
  { error: INVALID_SIGNED_EVENT },
);

export const INVALID_RATING = "Invalid Rating: Please select a rating between 1 and 5 stars.";

export const reviewSchema = z.object({
  rating: z.number({ error: INVALID_RATING }).int(INVALID_RATING).min(1, INVALID_RATING).max(5, INVALID_RATING),
  comment: z
    .string()
    .trim()
    .max(2000, "Comment must be at most 2,000 characters")
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
  revieweeId: z.string({ error: "revieweeId is required" }).min(1, "revieweeId is required"),
  /** The review signed by the reviewer's Nostr key (docs/decisions/028); without it the review is not verified. */
  event: signedEventSchema.optional(),
});

const httpUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(2000, `${label} must be at most 2,000 characters`)
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional()
    .refine((v) => {
      if (v == null) return true;
      try {
        const u = new URL(v);
        return u.protocol === "https:" || u.protocol === "http:";
      } catch {
        return false;
      }
    }, `${label} must be an http(s) URL`);

export const portfolioItemSchema = z.object({
  title: z.string({ error: "Title is required" }).trim().min(1, "Title is required").max(100, "Title must be less than 100 characters"),
  description: z
    .string()
    .trim()
    .max(1000, "Description must be less than 1000 characters")
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
  imageUrl: httpUrl("Image URL"),
  projectUrl: httpUrl("Project URL"),
  category: z
    .string()
    .trim()
    .max(50, "Category must be at most 50 characters")
    .transform((v) => (v === "" ? null : v))
    .nullable()
    .optional(),
});

export const portfolioEditSchema = portfolioItemSchema.partial();
