CREATE TABLE `backend_status` (
	`backend` text PRIMARY KEY NOT NULL,
	`last_ok_at` text,
	`last_ok_call` text,
	`last_error_at` text,
	`last_error_call` text,
	`last_error` text
);
