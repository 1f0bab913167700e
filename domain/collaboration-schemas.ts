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
