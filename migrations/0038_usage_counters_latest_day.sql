ALTER TABLE `usage_counters` ADD `latest_day` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `latest_day_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `latest_day_deliveries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `latest_day_crawler_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `latest_day_unmapped_urls` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `usage_counters` ADD `latest_day_unmapped_urls_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Added by hand: each customer's newest day moves from daily_usage to their usage_counters row, as the fold keeps it.
UPDATE `usage_counters` SET (`latest_day`, `latest_day_requests`, `latest_day_deliveries`, `latest_day_crawler_requests`,
  `latest_day_unmapped_urls`, `latest_day_unmapped_urls_before`) = (
    SELECT `day`, `requests`, `deliveries`, `crawler_requests`, `unmapped_urls`, `unmapped_urls` FROM `daily_usage` d
    WHERE d.`user_id` = `usage_counters`.`user_id` ORDER BY `day` DESC LIMIT 1)
  WHERE EXISTS (SELECT 1 FROM `daily_usage` d WHERE d.`user_id` = `usage_counters`.`user_id`);--> statement-breakpoint
DELETE FROM `daily_usage` WHERE (`user_id`, `day`) IN (
  SELECT `user_id`, `latest_day` FROM `usage_counters` WHERE `latest_day` <> '');
