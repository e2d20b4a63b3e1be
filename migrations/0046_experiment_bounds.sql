CREATE TABLE `experiment_runs` (
	`experiment` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`mapping_id` integer NOT NULL,
	`visitors` integer DEFAULT 0 NOT NULL,
	`visitors_before` integer DEFAULT 0 NOT NULL,
	`counted_seq` integer DEFAULT 0 NOT NULL,
	`last_seen` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `experiment_runs_last_seen_idx` ON `experiment_runs` (`last_seen`);--> statement-breakpoint
CREATE INDEX `experiment_runs_user_idx` ON `experiment_runs` (`user_id`);--> statement-breakpoint
ALTER TABLE `experiment_exposures` ADD `address` text;--> statement-breakpoint
CREATE INDEX `experiment_exposures_address_idx` ON `experiment_exposures` (`experiment`,`address`);--> statement-breakpoint
ALTER TABLE `experiment_stats` ADD `top_address` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `visitor_goals` ADD `address` text;--> statement-breakpoint
CREATE INDEX `visitor_goals_address_idx` ON `visitor_goals` (`user_id`,`address`);