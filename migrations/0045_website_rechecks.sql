DROP INDEX `websites_pending_check_idx`;--> statement-breakpoint
ALTER TABLE `websites` ADD `failed_checks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `websites_check_idx` ON `websites` (`status`,`checked_at`);