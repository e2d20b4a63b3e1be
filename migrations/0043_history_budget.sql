ALTER TABLE `mapping_totals` ADD `history_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `user_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `superseded` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `mapping_versions_prunable_idx` ON `mapping_versions` (`user_id`,`id`) WHERE "mapping_versions"."superseded" = 1;