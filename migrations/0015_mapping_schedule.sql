ALTER TABLE `url_mappings` ADD `publish_at` integer;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `unpublish_at` integer;--> statement-breakpoint
CREATE INDEX `url_mappings_publish_at_idx` ON `url_mappings` (`publish_at`) WHERE "url_mappings"."publish_at" is not null;--> statement-breakpoint
CREATE INDEX `url_mappings_unpublish_at_idx` ON `url_mappings` (`unpublish_at`) WHERE "url_mappings"."unpublish_at" is not null;