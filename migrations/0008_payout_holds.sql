ALTER TABLE `payouts` ADD `fee_cap` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `over_fee_cap` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `payouts` ADD `hold` text;--> statement-breakpoint
CREATE INDEX `payouts_destination_idx` ON `payouts` (`destination`,`over_fee_cap`);