CREATE TABLE `analytics_batches` (
	`second` integer NOT NULL,
	`batch` text NOT NULL,
	`message_ids` text NOT NULL,
	`events` text NOT NULL,
	PRIMARY KEY(`second`, `batch`)
);
--> statement-breakpoint
CREATE TABLE `daily_usage` (
	`user_id` text NOT NULL,
	`day` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `delivery_repairs` (
	`user_id` text NOT NULL,
	`target` text NOT NULL,
	`requested_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `target`)
);
--> statement-breakpoint
CREATE TABLE `url_stats` (
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`hits` integer DEFAULT 0 NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`last_accessed` integer NOT NULL,
	PRIMARY KEY(`user_id`, `url`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `url_stats_last_accessed_idx` ON `url_stats` (`user_id`,`last_accessed`);--> statement-breakpoint
ALTER TABLE `users` ADD `delivery_store_complete` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `url_mappings_delivery_idx` ON `url_mappings` (`user_id`,`normalized_url`,`created_at`) WHERE "url_mappings"."published_at" is not null;--> statement-breakpoint
CREATE INDEX `delivery_repairs_requested_idx` ON `delivery_repairs` (`requested_at`);--> statement-breakpoint
-- Hand-written backfill: customers with mappings have no entries in the new delivery store yet; until
-- `npm run delivery:rebuild -- --all` writes them, a URL without an entry is looked up in D1.
UPDATE `users` SET `delivery_store_complete` = false WHERE `id` IN (SELECT DISTINCT `user_id` FROM `url_mappings`);--> statement-breakpoint
-- Hand-written backfill: the per-day URL counters become all-time URL counters and per-day customer counters.
INSERT INTO `url_stats` (`user_id`, `url`, `hits`, `deliveries`, `last_accessed`)
  SELECT `user_id`, `url`, sum(`hits`), sum(`deliveries`), max(`last_accessed`) FROM `url_daily_stats` GROUP BY `user_id`, `url`;--> statement-breakpoint
INSERT INTO `daily_usage` (`user_id`, `day`, `requests`, `deliveries`)
  SELECT `user_id`, `day`, sum(`hits`), sum(`deliveries`) FROM `url_daily_stats` GROUP BY `user_id`, `day`;--> statement-breakpoint
DROP TABLE `url_daily_stats`;
