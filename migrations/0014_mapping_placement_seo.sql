ALTER TABLE `url_mappings` ADD `placement` text;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `seo` text;--> statement-breakpoint
-- Hand-written: an edit that moves a mapping to another URL (PATCH /api/mappings/{id}) keeps mapping_totals right,
-- as 0009's triggers do for an insert and a delete: the old URL, website or group counts one less when no other
-- mapping has it, the new one more when none had it before.
CREATE TRIGGER `mapping_totals_after_move` AFTER UPDATE OF `url`, `normalized_url` ON `url_mappings`
WHEN OLD.`normalized_url` IS NOT NEW.`normalized_url` OR OLD.`group_url` IS NOT NEW.`group_url` BEGIN
  UPDATE `mapping_totals` SET
    `urls` = `urls` + CASE WHEN OLD.`normalized_url` = NEW.`normalized_url` THEN 0 ELSE
      (NOT EXISTS (SELECT 1 FROM `url_mappings` m
        WHERE m.`user_id` = NEW.`user_id` AND m.`normalized_url` = NEW.`normalized_url` AND m.`id` <> NEW.`id`))
      - (NOT EXISTS (SELECT 1 FROM `url_mappings` m
        WHERE m.`user_id` = OLD.`user_id` AND m.`normalized_url` = OLD.`normalized_url`)) END,
    `hosts` = `hosts` + CASE WHEN OLD.`host` = NEW.`host` THEN 0 ELSE
      (NOT EXISTS (SELECT 1 FROM `url_mappings` m
        WHERE m.`user_id` = NEW.`user_id` AND m.`host` = NEW.`host` AND m.`id` <> NEW.`id`))
      - (NOT EXISTS (SELECT 1 FROM `url_mappings` m WHERE m.`user_id` = OLD.`user_id` AND m.`host` = OLD.`host`)) END,
    `groups` = `groups` + CASE WHEN OLD.`group_url` = NEW.`group_url` THEN 0 ELSE
      (NOT EXISTS (SELECT 1 FROM `url_mappings` m
        WHERE m.`user_id` = NEW.`user_id` AND m.`group_url` = NEW.`group_url` AND m.`id` <> NEW.`id`))
      - (NOT EXISTS (SELECT 1 FROM `url_mappings` m
        WHERE m.`user_id` = OLD.`user_id` AND m.`group_url` = OLD.`group_url`)) END
  WHERE `user_id` = NEW.`user_id`;
END;
