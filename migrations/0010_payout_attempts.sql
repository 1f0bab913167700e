CREATE TABLE `payout_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`payout_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`destination` text,
	`outcome` text NOT NULL,
	`detail` text,
	`routing_fee` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`payout_id`) REFERENCES `payouts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payout_attempts_payout_idx` ON `payout_attempts` (`payout_id`,`created_at`);