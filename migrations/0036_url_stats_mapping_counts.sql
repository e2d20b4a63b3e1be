ALTER TABLE `url_stats` ADD `mapping_id` integer;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `mapping_requests` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `url_stats` ADD `mapping_deliveries` integer DEFAULT 0 NOT NULL;