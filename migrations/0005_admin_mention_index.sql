-- The admin's unread chats (worker/services/admin-chat.ts) start from the members' messages that mention
-- @admin, found through this partial index, and from the disputed gigs, instead of scanning every message.
CREATE INDEX `chat_messages_admin_mention_idx` ON `chat_messages` (`gig_id`,`created_at`) WHERE sender_type = 'user' AND message LIKE '%@admin%';