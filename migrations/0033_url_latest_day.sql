PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_analytics_pending` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`batch` text NOT NULL,
	`views` integer NOT NULL,
	`events` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_analytics_pending`("seq", "batch", "views", "events") SELECT "seq", "batch", "views", "events" FROM `analytics_pending`;--> statement-breakpoint
DROP TABLE `analytics_pending`;--> statement-breakpoint
ALTER TABLE `__new_analytics_pending` RENAME TO `analytics_pending`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `latest_day` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `latest_day_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `latest_day_deliveries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `latest_day_crawler_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `latest_day_seq` integer DEFAULT 0 NOT NULL;