-- When a member turned on "Send my notifications as Nostr DMs" (docs/decisions/045): the cron's sweep writes the
-- DM of a notification whose deferred write was lost, only for notifications written since then.
ALTER TABLE `users` ADD `nostr_dm_since` text;--> statement-breakpoint
-- Members who have it on already: from now.
UPDATE `users` SET `nostr_dm_since` = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE `nostr_dm_notifications` = 1;
