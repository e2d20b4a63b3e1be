CREATE TABLE `audit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action` text NOT NULL,
	`actor_id` text,
	`actor_email` text NOT NULL,
	`target_id` text,
	`target_email` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`target_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `audit_events_created_idx` ON `audit_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_events_target_idx` ON `audit_events` (`target_id`);--> statement-breakpoint
DROP INDEX `api_keys_user_idx`;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `kind` text DEFAULT 'customer' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `impersonator_id` text REFERENCES users(id) ON DELETE cascade;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;--> statement-breakpoint
CREATE INDEX `api_keys_expiry_idx` ON `api_keys` (`expires_at`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`,`kind`);--> statement-breakpoint
-- Admins now sign in for a few hours at a time: their existing keys become session keys that have already expired,
-- so each admin signs in again with their password.
UPDATE `api_keys` SET `kind` = 'admin', `expires_at` = (unixepoch('subsec') * 1000) WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `role` = 'admin');
