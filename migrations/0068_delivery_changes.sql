CREATE TABLE `delivery_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key` text NOT NULL,
	`changed_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `delivery_changes_changed_idx` ON `delivery_changes` (`changed_at`);