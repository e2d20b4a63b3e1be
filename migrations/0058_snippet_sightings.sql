CREATE TABLE `snippet_sightings` (
	`user_id` text PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`seen_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
