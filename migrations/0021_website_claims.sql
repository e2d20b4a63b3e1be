CREATE TABLE `custom_hostname_removals` (
	`id` text PRIMARY KEY NOT NULL,
	`hostname` text NOT NULL,
	`requested_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `__new_websites` (
	`hostname` text NOT NULL,
	`user_id` text NOT NULL,
	`origin` text NOT NULL,
	`mode` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`verification_token` text NOT NULL,
	`verified_at` integer,
	`checked_at` integer,
	`check_problem` text,
	`custom_hostname_ids` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`hostname`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Hand-edited: claims made before ownership proofs existed were never proven, so each becomes a pending claim
-- with a token of its own and seven days from now to prove it (docs/decisions.md, "Website claims need proof").
INSERT INTO `__new_websites`("hostname", "user_id", "origin", "mode", "status", "verification_token", "created_at", "updated_at")
  SELECT "hostname", "user_id", "origin", "mode", 'pending', lower(hex(randomblob(16))), unixepoch('subsec') * 1000, "updated_at" FROM `websites`;--> statement-breakpoint
DROP TABLE `websites`;--> statement-breakpoint
ALTER TABLE `__new_websites` RENAME TO `websites`;--> statement-breakpoint
CREATE UNIQUE INDEX `websites_active_hostname_idx` ON `websites` (`hostname`) WHERE "websites"."status" = 'active';--> statement-breakpoint
CREATE INDEX `websites_user_idx` ON `websites` (`user_id`,`hostname`);--> statement-breakpoint
CREATE INDEX `websites_pending_check_idx` ON `websites` (`checked_at`) WHERE "websites"."status" = 'pending';--> statement-breakpoint
-- Hand-written: a claim's Cloudflare for SaaS custom hostnames are queued for deletion at Cloudflare whenever the
-- claim goes, however it goes (released, its customer deleted, swept), in the statement that deletes it
-- (worker/websites/custom-hostnames.ts carries the queue out).
CREATE TRIGGER `websites_custom_hostname_removals` AFTER DELETE ON `websites`
WHEN OLD.`custom_hostname_ids` IS NOT NULL BEGIN
  INSERT OR IGNORE INTO `custom_hostname_removals` (`id`, `hostname`, `requested_at`)
  SELECT `value`, OLD.`hostname`, unixepoch('subsec') * 1000 FROM json_each(OLD.`custom_hostname_ids`);
END;
