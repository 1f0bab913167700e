CREATE TABLE `gig_chat_summaries` (
	`gig_id` text PRIMARY KEY NOT NULL,
	`message_count` integer DEFAULT 0 NOT NULL,
	`last_message_id` text,
	`last_message_at` text,
	`last_sender_id` text,
	`last_sender_type` text,
	`member_message_count` integer DEFAULT 0 NOT NULL,
	`last_member_message_at` text,
	`last_mention_at` text,
	FOREIGN KEY (`gig_id`) REFERENCES `gigs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gig_chat_summaries_mention_idx` ON `gig_chat_summaries` (`last_mention_at`) WHERE last_mention_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `admin_chat_reads` ADD `member_messages_read` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each gig's chat summary from the messages D1 holds today (decision 031); the chat move then copies the
-- messages into the gigs' rooms.
INSERT INTO `gig_chat_summaries` (`gig_id`, `message_count`, `last_message_id`, `last_message_at`, `last_sender_id`, `last_sender_type`, `member_message_count`, `last_member_message_at`, `last_mention_at`)
SELECT m.gig_id, COUNT(*),
  (SELECT l.id FROM chat_messages l WHERE l.gig_id = m.gig_id ORDER BY l.created_at DESC, l.id DESC LIMIT 1),
  MAX(m.created_at),
  (SELECT l.sender_id FROM chat_messages l WHERE l.gig_id = m.gig_id ORDER BY l.created_at DESC, l.id DESC LIMIT 1),
  (SELECT l.sender_type FROM chat_messages l WHERE l.gig_id = m.gig_id ORDER BY l.created_at DESC, l.id DESC LIMIT 1),
  SUM(m.sender_type = 'user'),
  MAX(CASE WHEN m.sender_type = 'user' THEN m.created_at END),
  MAX(CASE WHEN m.sender_type = 'user' AND m.message LIKE '%@admin%' THEN m.created_at END)
FROM chat_messages m
GROUP BY m.gig_id;
--> statement-breakpoint
UPDATE `admin_chat_reads` SET `member_messages_read` = (
  SELECT COUNT(*) FROM chat_messages m WHERE m.gig_id = admin_chat_reads.gig_id AND m.sender_type = 'user' AND m.created_at <= admin_chat_reads.last_read_at
);
