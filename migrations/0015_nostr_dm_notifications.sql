CREATE TABLE `nostr_dm_relays` (
	`pubkey` text PRIMARY KEY NOT NULL,
	`relays` text NOT NULL,
	`checked_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `nostr_outbox` ADD `recipient` text;--> statement-breakpoint
ALTER TABLE `nostr_outbox` ADD `notification_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `nostr_outbox_notification_idx` ON `nostr_outbox` (`notification_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `nostr_dm_notifications` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- Notifications as NIP-17 DMs (docs/decisions/026): the member's setting (off by default), each gift wrap's recipient and notification in the outbox (one wrap per notification), and the DM relays (kind 10050) last found for a key.
