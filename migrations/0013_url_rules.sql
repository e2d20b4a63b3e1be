ALTER TABLE `url_mappings` ADD `prefix_depth` integer GENERATED ALWAYS AS ((case when normalized_url like '%/*'
        then length(normalized_url) - length(replace(normalized_url, '/', '')) end)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `url_mappings_prefix_idx` ON `url_mappings` (`user_id`,`prefix_depth`) WHERE "url_mappings"."prefix_depth" is not null and "url_mappings"."published_at" is not null;--> statement-breakpoint
ALTER TABLE `users` ADD `ignored_parameters` text DEFAULT '[]' NOT NULL;