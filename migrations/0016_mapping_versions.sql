CREATE TABLE `mapping_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`mapping_id` integer NOT NULL,
	`version` integer NOT NULL,
	`changed_by` text,
	`url` text NOT NULL,
	`html_content` text NOT NULL,
	`placement` text,
	`seo` text,
	`published_at` integer,
	`publish_at` integer,
	`unpublish_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`mapping_id`) REFERENCES `url_mappings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mapping_versions_mapping_version_idx` ON `mapping_versions` (`mapping_id`,`version`);--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `changed_by` text;--> statement-breakpoint
-- Hand-written: the history's triggers (docs/history.md). Every insert is version 1; every update that changes what
-- a mapping delivers, where, or when is the next version, stamped with url_mappings.changed_by. A mapping from
-- before the history gets its old state as version 1 at its first change, so no backfill copies every mapping's
-- HTML at once. The newest 50 versions per mapping are kept (contract/versions.ts VERSIONS_KEPT).
CREATE TRIGGER `mapping_versions_after_insert` AFTER INSERT ON `url_mappings` BEGIN
  INSERT INTO `mapping_versions` (`mapping_id`, `version`, `changed_by`, `url`, `html_content`, `placement`, `seo`,
    `published_at`, `publish_at`, `unpublish_at`, `created_at`)
  VALUES (NEW.`id`, 1, NEW.`changed_by`, NEW.`url`, NEW.`html_content`, NEW.`placement`, NEW.`seo`,
    NEW.`published_at`, NEW.`publish_at`, NEW.`unpublish_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;--> statement-breakpoint
CREATE TRIGGER `mapping_versions_after_update` AFTER UPDATE OF `url`, `html_content`, `placement`, `seo`,
  `published_at`, `publish_at`, `unpublish_at` ON `url_mappings`
WHEN OLD.`url` IS NOT NEW.`url` OR OLD.`html_content` IS NOT NEW.`html_content`
  OR OLD.`placement` IS NOT NEW.`placement` OR OLD.`seo` IS NOT NEW.`seo`
  OR OLD.`published_at` IS NOT NEW.`published_at` OR OLD.`publish_at` IS NOT NEW.`publish_at`
  OR OLD.`unpublish_at` IS NOT NEW.`unpublish_at` BEGIN
  INSERT INTO `mapping_versions` (`mapping_id`, `version`, `changed_by`, `url`, `html_content`, `placement`, `seo`,
    `published_at`, `publish_at`, `unpublish_at`, `created_at`)
  SELECT OLD.`id`, 1, NULL, OLD.`url`, OLD.`html_content`, OLD.`placement`, OLD.`seo`,
    OLD.`published_at`, OLD.`publish_at`, OLD.`unpublish_at`, OLD.`created_at`
  WHERE NOT EXISTS (SELECT 1 FROM `mapping_versions` WHERE `mapping_id` = OLD.`id`);
  INSERT INTO `mapping_versions` (`mapping_id`, `version`, `changed_by`, `url`, `html_content`, `placement`, `seo`,
    `published_at`, `publish_at`, `unpublish_at`, `created_at`)
  VALUES (NEW.`id`,
    (SELECT coalesce(max(`version`), 0) + 1 FROM `mapping_versions` WHERE `mapping_id` = NEW.`id`),
    NEW.`changed_by`, NEW.`url`, NEW.`html_content`, NEW.`placement`, NEW.`seo`,
    NEW.`published_at`, NEW.`publish_at`, NEW.`unpublish_at`, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
  DELETE FROM `mapping_versions` WHERE `mapping_id` = NEW.`id` AND `version` <= (
    SELECT max(`version`) - 50 FROM `mapping_versions` WHERE `mapping_id` = NEW.`id`);
END;
