CREATE TABLE `nostr_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` integer NOT NULL,
	`address` text,
	`gig_id` text,
	`gig_version` integer,
	`event_created_at` integer NOT NULL,
	`event` text NOT NULL,
	`relays` text DEFAULT '{}' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` text NOT NULL,
	`published_at` text,
	`done_at` text,
	`last_error` text,
	`updated_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `nostr_outbox_due_idx` ON `nostr_outbox` (`next_attempt_at`) WHERE done_at IS NULL;--> statement-breakpoint
CREATE INDEX `nostr_outbox_address_idx` ON `nostr_outbox` (`address`,`event_created_at`);--> statement-breakpoint
CREATE INDEX `nostr_outbox_kind_idx` ON `nostr_outbox` (`kind`,`event_created_at`);
--> statement-breakpoint
-- The Nostr outbox (docs/decisions/025): each event the platform key signs waits here, keyed by its id, until a relay takes it.
