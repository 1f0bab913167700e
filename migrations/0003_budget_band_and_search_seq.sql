ALTER TABLE `gigs` ADD `budget_band` integer GENERATED ALWAYS AS (CASE WHEN payment <= 9999 THEN 0 WHEN payment <= 50000 THEN 1 WHEN payment <= 100000 THEN 2 ELSE 3 END) VIRTUAL;--> statement-breakpoint
ALTER TABLE `gigs` ADD `search_seq` integer;--> statement-breakpoint
CREATE INDEX `gigs_band_browse_idx` ON `gigs` (`status`,`budget_band`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_type_band_browse_idx` ON `gigs` (`status`,`gig_type`,`budget_band`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_category_band_browse_idx` ON `gigs` (`status`,`category`,`budget_band`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `gigs_search_seq_idx` ON `gigs` (`search_seq`);