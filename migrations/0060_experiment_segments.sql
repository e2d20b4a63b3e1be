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
ALTER TABLE `experiment_exposures` ADD `segment` text;