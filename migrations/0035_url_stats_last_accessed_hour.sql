DROP INDEX `url_stats_last_accessed_idx`;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `last_accessed_hour` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Added by hand: every row's hour, before its index exists (one write per row, once).
UPDATE `url_stats` SET `last_accessed_hour` = `last_accessed` / 3600000;--> statement-breakpoint
CREATE INDEX `url_stats_last_accessed_hour_idx` ON `url_stats` (`user_id`,`last_accessed_hour`);