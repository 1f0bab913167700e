ALTER TABLE `sessions` ADD `id` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `client` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_used_at` text;--> statement-breakpoint
-- Sessions signed in before this migration get an id too (so their owner can end them one by one).
UPDATE `sessions` SET `id` = lower(hex(randomblob(16))) WHERE `id` IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `sessions_id_idx` ON `sessions` (`id`);