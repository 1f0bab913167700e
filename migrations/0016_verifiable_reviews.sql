ALTER TABLE `reviews` ADD `nostr_event` text;--> statement-breakpoint
ALTER TABLE `reviews` ADD `nostr_event_id` text;
--> statement-breakpoint
-- Reviews anyone can verify (docs/decisions/028): the review as the reviewer signed it (a kind 1985 Nostr event, JSON) and its id; null for a review sent unsigned (not verified).
