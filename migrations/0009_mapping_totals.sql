CREATE TABLE `mapping_totals` (
	`user_id` text PRIMARY KEY NOT NULL,
	`mappings` integer DEFAULT 0 NOT NULL,
	`urls` integer DEFAULT 0 NOT NULL,
	`hosts` integer DEFAULT 0 NOT NULL,
	`groups` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Hand-written: the triggers that keep mapping_totals (worker/db/schema.ts), then its backfill. A URL, website or
-- admin group counts once per customer, however many mappings share it; url_mappings_user_idx, _host_idx and
-- _group_idx answer each "another one like it?" with one probe.
CREATE TRIGGER `mapping_totals_after_insert` AFTER INSERT ON `url_mappings` BEGIN
  INSERT INTO `mapping_totals` (`user_id`, `mappings`, `urls`, `hosts`, `groups`) VALUES (NEW.`user_id`, 1,
    NOT EXISTS (SELECT 1 FROM `url_mappings` m
      WHERE m.`user_id` = NEW.`user_id` AND m.`normalized_url` = NEW.`normalized_url` AND m.`id` <> NEW.`id`),
    NOT EXISTS (SELECT 1 FROM `url_mappings` m
      WHERE m.`user_id` = NEW.`user_id` AND m.`host` = NEW.`host` AND m.`id` <> NEW.`id`),
    NOT EXISTS (SELECT 1 FROM `url_mappings` m
      WHERE m.`user_id` = NEW.`user_id` AND m.`group_url` = NEW.`group_url` AND m.`id` <> NEW.`id`))
  ON CONFLICT (`user_id`) DO UPDATE SET `mappings` = `mappings` + 1, `urls` = `urls` + excluded.`urls`,
    `hosts` = `hosts` + excluded.`hosts`, `groups` = `groups` + excluded.`groups`;
END;--> statement-breakpoint
CREATE TRIGGER `mapping_totals_after_delete` AFTER DELETE ON `url_mappings` BEGIN
  UPDATE `mapping_totals` SET `mappings` = `mappings` - 1,
    `urls` = `urls` - NOT EXISTS (SELECT 1 FROM `url_mappings` m
      WHERE m.`user_id` = OLD.`user_id` AND m.`normalized_url` = OLD.`normalized_url`),
    `hosts` = `hosts` - NOT EXISTS (SELECT 1 FROM `url_mappings` m
      WHERE m.`user_id` = OLD.`user_id` AND m.`host` = OLD.`host`),
    `groups` = `groups` - NOT EXISTS (SELECT 1 FROM `url_mappings` m
      WHERE m.`user_id` = OLD.`user_id` AND m.`group_url` = OLD.`group_url`)
  WHERE `user_id` = OLD.`user_id`;
END;--> statement-breakpoint
INSERT INTO `mapping_totals` (`user_id`, `mappings`, `urls`, `hosts`, `groups`)
  SELECT `user_id`, count(*), count(DISTINCT `normalized_url`), count(DISTINCT `host`), count(DISTINCT `group_url`)
  FROM `url_mappings`
  GROUP BY `user_id`;
