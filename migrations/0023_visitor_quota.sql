-- Hand-edited: visitor_daily_usage is a WITHOUT ROWID table (drizzle's schema cannot say so), keyed by day first:
-- read and written only by its key, and the daily cron drops a past day as one range of it.
CREATE TABLE `visitor_daily_usage` (
	`day` text NOT NULL,
	`user_id` text NOT NULL,
	`visitor` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `user_id`, `visitor`)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `daily_usage` ADD `unmapped_urls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `daily_usage` ADD `unmapped_urls_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `period_unbilled_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `period_unbilled_deliveries` integer DEFAULT 0 NOT NULL;