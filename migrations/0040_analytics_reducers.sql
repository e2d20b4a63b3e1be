CREATE TABLE `analytics_handoffs` (
	`from_seq` integer PRIMARY KEY NOT NULL,
	`to_seq` integer NOT NULL,
	`customers` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reducer_checkpoints` (
	`shard` integer NOT NULL,
	`user_id` text NOT NULL,
	`through` integer NOT NULL,
	PRIMARY KEY(`shard`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `analytics_pending` ADD `reduced` integer DEFAULT 0 NOT NULL;