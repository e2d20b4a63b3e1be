DROP INDEX `url_mappings_experiment_idx`;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `holdout` text;--> statement-breakpoint
CREATE INDEX `url_mappings_experiment_idx` ON `url_mappings` (`user_id`) WHERE "url_mappings"."experiment_id" is not null;--> statement-breakpoint
ALTER TABLE `deleted_mappings` ADD `holdout` text;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `holdout` text;