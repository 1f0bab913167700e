ALTER TABLE `payout_attempts` ADD `bolt11` text;--> statement-breakpoint
ALTER TABLE `payout_attempts` ADD `payment_hash` text;--> statement-breakpoint
ALTER TABLE `payout_attempts` ADD `claim` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `claimed_until` text;--> statement-breakpoint
CREATE INDEX `payouts_over_cap_recipient_idx` ON `payouts` (`over_fee_cap`,`recipient_id`);--> statement-breakpoint
-- A payout the wallet did not know is held in doubt under the one payout rule (domain/payout-rule.ts).
UPDATE `payouts` SET `hold` = 'in_doubt' WHERE `hold` = 'unknown_to_wallet';
--> statement-breakpoint
-- Every payout in flight with a recorded invoice keeps that invoice as an attempt in doubt: it is looked
-- up before anything new is paid.
INSERT INTO `payout_attempts` (`id`, `payout_id`, `attempt`, `destination`, `outcome`, `detail`, `bolt11`, `payment_hash`, `claim`)
SELECT lower(hex(randomblob(16))), `id`, `attempts`, `destination`, 'unknown', 'Recorded before the payout rule: looked up before anything is paid again', `bolt11`, `payment_hash`, `transition_id`
FROM `payouts` WHERE `status` = 'in_flight' AND `payment_hash` IS NOT NULL;
--> statement-breakpoint
UPDATE `payouts` SET `hold` = 'in_doubt' WHERE `status` = 'in_flight' AND `payment_hash` IS NOT NULL AND `hold` IS NULL;
