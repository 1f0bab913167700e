ALTER TABLE `admin_sessions` ADD `pubkey` text;
-- The admin key whose member session opened the admin token (DESIGN.md §6, decision 023): "Sign out
-- everywhere" by that member, or the key leaving ADMIN_PUBKEYS, ends it. Tokens from before have no key;
-- a deployed Worker no longer honours them (the admin signs in again), a local run without ADMIN_PUBKEYS does.
