CREATE INDEX `url_mappings_recent_idx` ON `url_mappings` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `users_created_idx` ON `users` (`created_at`,`id`);