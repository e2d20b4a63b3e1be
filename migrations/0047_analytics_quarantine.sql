CREATE TABLE `analytics_quarantine` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`reduced` integer NOT NULL,
	`views` integer NOT NULL,
	`events` text NOT NULL,
	`attempts` integer NOT NULL,
	`reason` text NOT NULL,
	`quarantined_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `analytics_quarantine_user_idx` ON `analytics_quarantine` (`user_id`,`id`);--> statement-breakpoint
ALTER TABLE `analytics_handoffs` ADD `failures` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_handoffs` ADD `last_error` text;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `experiment_id` text;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `experiment_goals` text;