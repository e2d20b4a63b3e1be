CREATE TABLE `experiment_segment_stats` (
	`experiment` text NOT NULL,
	`variant` text NOT NULL,
	`goal` text NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`user_id` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`experiment`, `dimension`, `variant`, `goal`, `value`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
DROP INDEX `url_mappings_experiment_idx`;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `holdout` text;--> statement-breakpoint
CREATE INDEX `url_mappings_experiment_idx` ON `url_mappings` (`user_id`) WHERE "url_mappings"."experiment_id" is not null;--> statement-breakpoint
ALTER TABLE `deleted_mappings` ADD `holdout` text;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `holdout` text;--> statement-breakpoint
ALTER TABLE `experiment_exposures` ADD `segment` text;