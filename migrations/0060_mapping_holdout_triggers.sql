-- Holdouts (docs/audiences.md, "Holdout"): versions keep a mapping's holdout and a change of it is a new version; its
-- bytes count in the history and content budgets; its id and goals are copied to experiment_id and experiment_goals
-- as an experiment's are, so the fold counts it alike (worker/db/raw.ts).
DROP TRIGGER IF EXISTS "mapping_versions_after_insert";--> statement-breakpoint
CREATE TRIGGER "mapping_versions_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "audience", "priority", "holdout", "published_at", "publish_at", "unpublish_at", "created_at",
    "user_id", "bytes")
  VALUES (NEW."id", 1, NEW."changed_by", NEW."url", NEW."html_content", NEW."placement", NEW."seo",
    NEW."experiment", NEW."audience", NEW."priority", NEW."holdout", NEW."published_at", NEW."publish_at",
    NEW."unpublish_at", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NEW."user_id", (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0) + coalesce(length(CAST(NEW."audience" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."holdout" AS BLOB)), 0)));
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "mapping_versions_after_update";--> statement-breakpoint
CREATE TRIGGER "mapping_versions_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo",
  "experiment", "audience", "priority", "holdout", "published_at", "publish_at", "unpublish_at" ON "url_mappings"
WHEN OLD."url" IS NOT NEW."url" OR OLD."html_content" IS NOT NEW."html_content"
  OR OLD."placement" IS NOT NEW."placement" OR OLD."seo" IS NOT NEW."seo" OR OLD."experiment" IS NOT NEW."experiment"
  OR OLD."audience" IS NOT NEW."audience" OR OLD."priority" IS NOT NEW."priority" OR OLD."holdout" IS NOT NEW."holdout"
  OR OLD."published_at" IS NOT NEW."published_at" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at" BEGIN
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "audience", "priority", "holdout", "published_at", "publish_at", "unpublish_at", "created_at",
    "user_id", "bytes")
  SELECT OLD."id", 1, NULL, OLD."url", OLD."html_content", OLD."placement", OLD."seo",
    OLD."experiment", OLD."audience", OLD."priority", OLD."holdout", OLD."published_at", OLD."publish_at",
    OLD."unpublish_at", OLD."created_at", OLD."user_id", (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0) + coalesce(length(CAST(OLD."audience" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."holdout" AS BLOB)), 0))
  WHERE NOT EXISTS (SELECT 1 FROM "mapping_versions" WHERE "mapping_id" = OLD."id");
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "audience", "priority", "holdout", "published_at", "publish_at", "unpublish_at", "created_at",
    "user_id", "bytes")
  VALUES (NEW."id", (SELECT coalesce(max("version"), 0) + 1 FROM "mapping_versions" WHERE "mapping_id" = NEW."id"), NEW."changed_by", NEW."url", NEW."html_content", NEW."placement", NEW."seo",
    NEW."experiment", NEW."audience", NEW."priority", NEW."holdout", NEW."published_at", NEW."publish_at",
    NEW."unpublish_at", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NEW."user_id", (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0) + coalesce(length(CAST(NEW."audience" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."holdout" AS BLOB)), 0)));
  DELETE FROM "mapping_versions" WHERE "mapping_id" = NEW."id" AND "version" <= (
    SELECT max("version") - 50 FROM "mapping_versions" WHERE "mapping_id" = NEW."id");
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "deleted_mappings_budget_after_insert";--> statement-breakpoint
CREATE TRIGGER "deleted_mappings_budget_after_insert" AFTER INSERT ON "deleted_mappings" BEGIN
  INSERT INTO "mapping_totals" ("user_id", "history_bytes")
    VALUES (NEW."user_id", (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0) + coalesce(length(CAST(NEW."audience" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."holdout" AS BLOB)), 0)))
    ON CONFLICT ("user_id") DO UPDATE SET "history_bytes" = "history_bytes" + excluded."history_bytes";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "deleted_mappings_budget_after_delete";--> statement-breakpoint
CREATE TRIGGER "deleted_mappings_budget_after_delete" AFTER DELETE ON "deleted_mappings" BEGIN
  UPDATE "mapping_totals" SET "history_bytes" = "history_bytes" - (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0) + coalesce(length(CAST(OLD."audience" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."holdout" AS BLOB)), 0))
  WHERE "user_id" = OLD."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "mapping_content_after_insert";--> statement-breakpoint
CREATE TRIGGER "mapping_content_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_totals" ("user_id", "content_bytes")
    VALUES (NEW."user_id", (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0) + coalesce(length(CAST(NEW."audience" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."holdout" AS BLOB)), 0)))
    ON CONFLICT ("user_id") DO UPDATE SET "content_bytes" = "content_bytes" + excluded."content_bytes";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "mapping_content_after_update";--> statement-breakpoint
CREATE TRIGGER "mapping_content_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo", "experiment",
  "audience", "holdout" ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "content_bytes" = "content_bytes" + (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0) + coalesce(length(CAST(NEW."audience" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."holdout" AS BLOB)), 0)) - (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0) + coalesce(length(CAST(OLD."audience" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."holdout" AS BLOB)), 0))
  WHERE "user_id" = NEW."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "mapping_content_after_delete";--> statement-breakpoint
CREATE TRIGGER "mapping_content_after_delete" AFTER DELETE ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "content_bytes" = "content_bytes" - (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0) + coalesce(length(CAST(OLD."audience" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."holdout" AS BLOB)), 0))
  WHERE "user_id" = OLD."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "url_mappings_experiment_after_insert";--> statement-breakpoint
CREATE TRIGGER "url_mappings_experiment_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."experiment" IS NOT NULL OR NEW."holdout" IS NOT NULL BEGIN
  UPDATE "url_mappings" SET ("experiment_id", "experiment_goals") =
    (SELECT e ->> '$.id', e -> '$.goals' FROM (SELECT coalesce((CASE WHEN json_valid(NEW."experiment") THEN NEW."experiment" END), NEW."holdout") AS e))
  WHERE "id" = NEW."id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "url_mappings_experiment_after_update";--> statement-breakpoint
CREATE TRIGGER "url_mappings_experiment_after_update" AFTER UPDATE OF "experiment", "holdout" ON "url_mappings" BEGIN
  UPDATE "url_mappings" SET ("experiment_id", "experiment_goals") =
    (SELECT e ->> '$.id', e -> '$.goals' FROM (SELECT coalesce((CASE WHEN json_valid(NEW."experiment") THEN NEW."experiment" END), NEW."holdout") AS e))
  WHERE "id" = NEW."id";
END;
