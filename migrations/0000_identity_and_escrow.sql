CREATE TABLE `auth_challenges` (
	`id` text PRIMARY KEY NOT NULL,
	`challenge` text NOT NULL,
	`expires_at` text NOT NULL,
	`consumed_at` text,
	`event_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_challenges_event_idx` ON `auth_challenges` (`event_id`);--> statement-breakpoint
CREATE INDEX `auth_challenges_expiry_idx` ON `auth_challenges` (`expires_at`);--> statement-breakpoint
CREATE TABLE `dev_lightning_invoices` (
	`payment_hash` text PRIMARY KEY NOT NULL,
	`recipient` text,
	`status` text NOT NULL,
	`record` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dev_invoices_recipient_idx` ON `dev_lightning_invoices` (`recipient`,`status`);--> statement-breakpoint
CREATE TABLE `dev_lightning_payments` (
	`payment_hash` text PRIMARY KEY NOT NULL,
	`record` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `gig_events` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`type` text NOT NULL,
	`actor_id` text,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gig_events_gig_idx` ON `gig_events` (`gig_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `gigs` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_type` text NOT NULL,
	`title` text NOT NULL,
	`description` text NOT NULL,
	`category` text NOT NULL,
	`payment` integer NOT NULL,
	`timeframe` integer NOT NULL,
	`deadline` text,
	`status` text NOT NULL,
	`escrow_status` text DEFAULT 'pending' NOT NULL,
	`poster_id` text NOT NULL,
	`hirer_id` text,
	`worker_id` text,
	`work_submission` text,
	`revision_note` text,
	`dispute_reason` text,
	`disputed_by` text,
	`resolution` text,
	`funding_invoice_id` text,
	`claimed_at` text,
	`submitted_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`funded_at` text,
	`reminders_sent` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`transition_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`poster_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`hirer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`worker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gigs_browse_idx` ON `gigs` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_type_browse_idx` ON `gigs` (`status`,`gig_type`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_category_browse_idx` ON `gigs` (`status`,`category`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_created_idx` ON `gigs` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `gigs_poster_idx` ON `gigs` (`poster_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gigs_hirer_idx` ON `gigs` (`hirer_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `gigs_worker_idx` ON `gigs` (`worker_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`purpose` text NOT NULL,
	`payer_id` text NOT NULL,
	`bolt11` text NOT NULL,
	`payment_hash` text NOT NULL,
	`amount` integer NOT NULL,
	`expires_at` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`paid_at` text,
	`transition_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_hash_idx` ON `invoices` (`payment_hash`);--> statement-breakpoint
CREATE INDEX `invoices_gig_idx` ON `invoices` (`gig_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `invoices_status_idx` ON `invoices` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `ledger_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tx_id` text NOT NULL,
	`account` text NOT NULL,
	`amount` integer NOT NULL,
	`memo` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `ledger_account_idx` ON `ledger_entries` (`account`);--> statement-breakpoint
CREATE INDEX `ledger_tx_idx` ON `ledger_entries` (`tx_id`);--> statement-breakpoint
CREATE TABLE `notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`gig_id` text,
	`type` text NOT NULL,
	`title` text NOT NULL,
	`message` text NOT NULL,
	`actor_id` text,
	`is_read` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notifications_user_idx` ON `notifications` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_unread_idx` ON `notifications` (`user_id`,`is_read`);--> statement-breakpoint
CREATE TABLE `payouts` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`purpose` text NOT NULL,
	`recipient_id` text NOT NULL,
	`amount` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`next_attempt_at` text,
	`destination` text,
	`bolt11` text,
	`payment_hash` text,
	`preimage` text,
	`routing_fee` integer,
	`transition_id` text,
	`updated_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`recipient_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payouts_gig_purpose_idx` ON `payouts` (`gig_id`,`purpose`);--> statement-breakpoint
CREATE INDEX `payouts_status_idx` ON `payouts` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `payouts_recipient_idx` ON `payouts` (`recipient_id`);--> statement-breakpoint
CREATE TABLE `pre_claim_messages` (
	`id` text PRIMARY KEY NOT NULL,
	`gig_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`message` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`claim_enabled` integer DEFAULT false NOT NULL,
	`transition_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pre_claim_gig_sender_idx` ON `pre_claim_messages` (`gig_id`,`sender_id`);--> statement-breakpoint
CREATE INDEX `pre_claim_sender_idx` ON `pre_claim_messages` (`sender_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`username` text NOT NULL,
	`nostr_pubkey` text,
	`display_name` text,
	`profile_picture` text,
	`bio` text,
	`nip05` text,
	`lightning_address` text,
	`gigstr_alias` text,
	`completed_gigs` integer DEFAULT 0 NOT NULL,
	`successful_gigs` integer DEFAULT 0 NOT NULL,
	`average_rating` integer DEFAULT 0 NOT NULL,
	`total_reviews` integer DEFAULT 0 NOT NULL,
	`deleted_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_idx` ON `users` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_pubkey_idx` ON `users` (`nostr_pubkey`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_alias_idx` ON `users` (`gigstr_alias`);