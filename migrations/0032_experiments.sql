-- Hand-edited: the experiments' tables are WITHOUT ROWID (drizzle's schema cannot say so), read and written by
-- their keys; the history's triggers copy the new `experiment` column, and the webhook triggers of experiments
-- (worker/db/raw.ts) are created.
CREATE TABLE `experiment_conversions` (
	`experiment` text NOT NULL,
	`visitor` text NOT NULL,
	`goal` text NOT NULL,
	`user_id` text NOT NULL,
	`variant` text NOT NULL,
	PRIMARY KEY(`experiment`, `visitor`, `goal`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `experiment_exposures` (
	`experiment` text NOT NULL,
	`visitor` text NOT NULL,
	`user_id` text NOT NULL,
	`mapping_id` integer NOT NULL,
	`variant` text NOT NULL,
	`first_seen` integer NOT NULL,
	PRIMARY KEY(`experiment`, `visitor`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `experiment_exposures_visitor_idx` ON `experiment_exposures` (`user_id`,`visitor`);--> statement-breakpoint
CREATE TABLE `experiment_stats` (
	`experiment` text NOT NULL,
	`variant` text NOT NULL,
	`goal` text NOT NULL,
	`user_id` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`experiment`, `variant`, `goal`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `visitor_goals` (
	`user_id` text NOT NULL,
	`visitor` text NOT NULL,
	`goal` text NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `visitor`, `goal`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `visitor_goals_last_at_idx` ON `visitor_goals` (`last_at`);--> statement-breakpoint
ALTER TABLE `deleted_mappings` ADD `experiment` text;--> statement-breakpoint
ALTER TABLE `mapping_versions` ADD `experiment` text;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `experiment` text;--> statement-breakpoint
CREATE INDEX `url_mappings_experiment_idx` ON `url_mappings` (`user_id`) WHERE "url_mappings"."experiment" is not null;--> statement-breakpoint
DROP TRIGGER "mapping_versions_after_insert";--> statement-breakpoint
DROP TRIGGER "mapping_versions_after_update";--> statement-breakpoint
CREATE TRIGGER "mapping_versions_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "published_at", "publish_at", "unpublish_at", "created_at")
  VALUES (NEW."id", 1, NEW."changed_by", NEW."url", NEW."html_content", NEW."placement", NEW."seo",
    NEW."experiment", NEW."published_at", NEW."publish_at", NEW."unpublish_at", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
END;--> statement-breakpoint
CREATE TRIGGER "mapping_versions_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo",
  "experiment", "published_at", "publish_at", "unpublish_at" ON "url_mappings"
WHEN OLD."url" IS NOT NEW."url" OR OLD."html_content" IS NOT NEW."html_content"
  OR OLD."placement" IS NOT NEW."placement" OR OLD."seo" IS NOT NEW."seo" OR OLD."experiment" IS NOT NEW."experiment"
  OR OLD."published_at" IS NOT NEW."published_at" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at" BEGIN
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "published_at", "publish_at", "unpublish_at", "created_at")
  SELECT OLD."id", 1, NULL, OLD."url", OLD."html_content", OLD."placement", OLD."seo",
    OLD."experiment", OLD."published_at", OLD."publish_at", OLD."unpublish_at", OLD."created_at"
  WHERE NOT EXISTS (SELECT 1 FROM "mapping_versions" WHERE "mapping_id" = OLD."id");
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "published_at", "publish_at", "unpublish_at", "created_at")
  VALUES (NEW."id",
    (SELECT coalesce(max("version"), 0) + 1 FROM "mapping_versions" WHERE "mapping_id" = NEW."id"),
    NEW."changed_by", NEW."url", NEW."html_content", NEW."placement", NEW."seo",
    NEW."experiment", NEW."published_at", NEW."publish_at", NEW."unpublish_at", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
  DELETE FROM "mapping_versions" WHERE "mapping_id" = NEW."id" AND "version" <= (
    SELECT max("version") - 50 FROM "mapping_versions" WHERE "mapping_id" = NEW."id");
END;--> statement-breakpoint
CREATE TRIGGER "webhook_experiment_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."experiment" IS NOT NULL AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", 'experiment.started',
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
CREATE TRIGGER "webhook_experiment_after_update" AFTER UPDATE OF "experiment" ON "url_mappings"
WHEN (OLD."experiment" ->> '$.id') IS NOT (NEW."experiment" ->> '$.id') AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", CASE
      WHEN NEW."experiment" IS NOT NULL THEN 'experiment.started'
      WHEN NEW."html_content" IS NOT OLD."html_content" AND NEW."html_content" IN
        (SELECT v."value" ->> '$.htmlContent' FROM json_each(OLD."experiment", '$.variants') AS v)
        THEN 'experiment.promoted'
      ELSE 'experiment.stopped' END,
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;
