ALTER TABLE `deleted_mappings` ADD `audience` text;--> statement-breakpoint
ALTER TABLE `deleted_mappings` ADD `priority` integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `audience` text;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `priority` integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `audience` text;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `priority` integer DEFAULT 100 NOT NULL;--> statement-breakpoint
CREATE INDEX `url_mappings_audience_idx` ON `url_mappings` (`user_id`,`normalized_url`,`priority`,`id`) WHERE "url_mappings"."audience" is not null and ("url_mappings"."published_at" is not null or "url_mappings"."publish_at" is not null);