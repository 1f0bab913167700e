CREATE TABLE `gig_milestones` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`number` integer NOT NULL,
	`title` text,
	`amount` integer NOT NULL,
	`days` integer,
	`escrow` text DEFAULT 'unfunded' NOT NULL,
	`escrow_account` text NOT NULL,
	`funding_invoice_id` text,
	`funded_at` text,
	`settled_at` text,
	`resolution` text,
	`transition_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `gig_milestones_gig_number_idx` ON `gig_milestones` (`gig_id`,`number`);--> statement-breakpoint
CREATE TABLE `milestone_proposals` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`proposer_id` text NOT NULL,
	`from_number` integer NOT NULL,
	`plan` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`transition_id` text,
	`decided_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`proposer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `milestone_proposals_gig_idx` ON `milestone_proposals` (`gig_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `milestone_proposals_one_pending_idx` ON `milestone_proposals` (`gig_id`) WHERE status = 'pending';--> statement-breakpoint
DROP INDEX `payouts_gig_purpose_idx`;--> statement-breakpoint
ALTER TABLE `payouts` ADD `milestone` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_gig_milestone_purpose_idx` ON `payouts` (`gig_id`,`milestone`,`purpose`);--> statement-breakpoint
ALTER TABLE `gigs` ADD `current_milestone` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `gigs` ADD `milestone_count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `milestone` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Every existing gig gets its one implicit milestone (issue 28): its whole payment, escrowed where it always was
-- (escrow:<gig>), its money state from the gig's escrow status. A split dispute left the escrow "released".
INSERT INTO `gig_milestones` (`id`, `gig_id`, `number`, `title`, `amount`, `days`, `escrow`, `escrow_account`, `funding_invoice_id`, `funded_at`, `settled_at`, `resolution`, `created_at`)
SELECT
	lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
	`id`, 1, NULL, `payment`, NULL,
	CASE `escrow_status`
		WHEN 'funded' THEN 'funded'
		WHEN 'refunded' THEN 'refunded'
		WHEN 'released' THEN CASE WHEN `resolution` = 'split' THEN 'split' ELSE 'released' END
		ELSE 'unfunded'
	END,
	'escrow:' || `id`, NULL, `funded_at`,
	CASE WHEN `escrow_status` IN ('released', 'refunded') THEN COALESCE(`completed_at`, `cancelled_at`) END,
	CASE
		WHEN `escrow_status` = 'released' AND `resolution` IN ('pay_worker', 'split') THEN `resolution`
		-- Released by the hirer's silence: the gig kept no resolution, only its event.
		WHEN `escrow_status` = 'released' AND EXISTS (SELECT 1 FROM `gig_events` e WHERE e.`gig_id` = `gigs`.`id` AND e.`type` = 'auto_released') THEN 'auto_released'
		WHEN `escrow_status` = 'released' THEN 'approved'
		WHEN `escrow_status` = 'refunded' AND `resolution` = 'refund_hirer' THEN 'refund_hirer'
		WHEN `escrow_status` = 'refunded' THEN 'cancelled'
	END,
	`created_at`
FROM `gigs`
WHERE NOT EXISTS (SELECT 1 FROM `gig_milestones` m WHERE m.`gig_id` = `gigs`.`id`);
