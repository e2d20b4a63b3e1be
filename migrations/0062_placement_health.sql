CREATE TABLE `placement_health` (
	`mapping_id` integer NOT NULL,
	`day` text NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`misses` integer DEFAULT 0 NOT NULL,
	`last_miss_at` integer,
	PRIMARY KEY(`mapping_id`, `day`),
	FOREIGN KEY (`mapping_id`) REFERENCES `url_mappings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `placement_health_day_idx` ON `placement_health` (`day`);