ALTER TABLE `invoices` ADD `late_check_at` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `late_checks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `invoices_late_check_idx` ON `invoices` (`late_check_at`);--> statement-breakpoint
-- Invoices that expired in the last 12 hours are asked about once more, as those expiring from now on will be.
UPDATE `invoices` SET `late_check_at` = `expires_at` WHERE `status` = 'expired' AND `expires_at` >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-12 hours');
