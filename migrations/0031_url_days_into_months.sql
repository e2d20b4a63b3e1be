-- Hand-edited: url_monthly_usage is a WITHOUT ROWID table (drizzle's schema cannot say so), like url_daily_usage
-- whose days older than 13 months it sums (worker/analytics/url-months.ts).
CREATE TABLE `housekeeping_cursors` (
	`job` text PRIMARY KEY NOT NULL,
	`position` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `url_monthly_usage` (
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`month` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`crawler_requests` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `url`, `month`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
