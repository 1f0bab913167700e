-- Old gigs in R2 (decision 033): a gig that ended more than ARCHIVE_AFTER_DAYS ago has its events, interest
-- messages, notifications and chat moved into one document in R2 (worker/services/archive.ts); its row and
-- every money row stay here for good, marked with when that happened.
ALTER TABLE `gigs` ADD `archived_at` text;--> statement-breakpoint
-- The cron's question "which ended gigs are due" reads only the gigs not yet archived, oldest end first.
CREATE INDEX `gigs_archive_due_idx` ON `gigs` (coalesce(`completed_at`, `cancelled_at`)) WHERE `archived_at` IS NULL AND `status` IN ('completed', 'cancelled');
