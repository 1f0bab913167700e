-- A hirer of a service offering sees the gig's chat, files and events from their own hire on: an earlier
-- hirer who withdrew, or whose invoice expired, keeps their conversation (worker/services/gig-access.ts).
ALTER TABLE `gigs` ADD `hired_at` text;--> statement-breakpoint
-- Offerings hired now: the current hire is the latest 'hired' event.
UPDATE `gigs` SET `hired_at` = (SELECT MAX(e.`created_at`) FROM `gig_events` e WHERE e.`gig_id` = `gigs`.`id` AND e.`type` = 'hired')
WHERE `gig_type` = 'service_offering' AND `hirer_id` IS NOT NULL;
