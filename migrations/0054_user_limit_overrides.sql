ALTER TABLE `users` ADD `websites_limit` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `dynamic_content_limit` integer;