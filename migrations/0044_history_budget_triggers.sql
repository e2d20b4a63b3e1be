-- History kept by bytes as well as count (worker/db/raw.ts, docs/history.md): each version knows its customer, its
-- size and whether a newer one exists; mapping_totals.history_bytes sums versions and deleted mappings per customer.
-- Existing rows are filled in here; an account already past the budget is pruned from its next change on.
DROP TRIGGER "mapping_versions_after_insert";--> statement-breakpoint
DROP TRIGGER "mapping_versions_after_update";--> statement-breakpoint
UPDATE "mapping_versions" SET
  "user_id" = coalesce((SELECT m."user_id" FROM "url_mappings" m WHERE m."id" = "mapping_versions"."mapping_id"), ''),
  "bytes" = (64 + length(CAST("mapping_versions"."url" AS BLOB)) + length(CAST("mapping_versions"."html_content" AS BLOB))
    + coalesce(length(CAST("mapping_versions"."placement" AS BLOB)), 0) + coalesce(length(CAST("mapping_versions"."seo" AS BLOB)), 0)
    + coalesce(length(CAST("mapping_versions"."experiment" AS BLOB)), 0)),
  "superseded" = "version" < (SELECT max(v."version") FROM "mapping_versions" v
    WHERE v."mapping_id" = "mapping_versions"."mapping_id");--> statement-breakpoint
INSERT INTO "mapping_totals" ("user_id", "history_bytes")
SELECT "user_id", sum("bytes") FROM (
  SELECT "user_id", "bytes" FROM "mapping_versions"
  UNION ALL SELECT "user_id", (64 + length(CAST("deleted_mappings"."url" AS BLOB)) + length(CAST("deleted_mappings"."html_content" AS BLOB))
    + coalesce(length(CAST("deleted_mappings"."placement" AS BLOB)), 0) + coalesce(length(CAST("deleted_mappings"."seo" AS BLOB)), 0)
    + coalesce(length(CAST("deleted_mappings"."experiment" AS BLOB)), 0)) FROM "deleted_mappings")
WHERE "user_id" IN (SELECT "id" FROM "users") GROUP BY "user_id"
ON CONFLICT ("user_id") DO UPDATE SET "history_bytes" = excluded."history_bytes";--> statement-breakpoint
CREATE TRIGGER "mapping_versions_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "published_at", "publish_at", "unpublish_at", "created_at", "user_id", "bytes")
  VALUES (NEW."id", 1, NEW."changed_by", NEW."url", NEW."html_content", NEW."placement", NEW."seo",
    NEW."experiment", NEW."published_at", NEW."publish_at", NEW."unpublish_at", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NEW."user_id",
    (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0)));
END;--> statement-breakpoint
CREATE TRIGGER "mapping_versions_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo",
  "experiment", "published_at", "publish_at", "unpublish_at" ON "url_mappings"
WHEN OLD."url" IS NOT NEW."url" OR OLD."html_content" IS NOT NEW."html_content"
  OR OLD."placement" IS NOT NEW."placement" OR OLD."seo" IS NOT NEW."seo" OR OLD."experiment" IS NOT NEW."experiment"
  OR OLD."published_at" IS NOT NEW."published_at" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at" BEGIN
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "published_at", "publish_at", "unpublish_at", "created_at", "user_id", "bytes")
  SELECT OLD."id", 1, NULL, OLD."url", OLD."html_content", OLD."placement", OLD."seo",
    OLD."experiment", OLD."published_at", OLD."publish_at", OLD."unpublish_at", OLD."created_at", OLD."user_id",
    (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0))
  WHERE NOT EXISTS (SELECT 1 FROM "mapping_versions" WHERE "mapping_id" = OLD."id");
  INSERT INTO "mapping_versions" ("mapping_id", "version", "changed_by", "url", "html_content", "placement", "seo",
    "experiment", "published_at", "publish_at", "unpublish_at", "created_at", "user_id", "bytes")
  VALUES (NEW."id", (SELECT coalesce(max("version"), 0) + 1 FROM "mapping_versions" WHERE "mapping_id" = NEW."id"), NEW."changed_by", NEW."url", NEW."html_content", NEW."placement", NEW."seo",
    NEW."experiment", NEW."published_at", NEW."publish_at", NEW."unpublish_at", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), NEW."user_id",
    (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0)));
  DELETE FROM "mapping_versions" WHERE "mapping_id" = NEW."id" AND "version" <= (
    SELECT max("version") - 50 FROM "mapping_versions" WHERE "mapping_id" = NEW."id");
END;--> statement-breakpoint
CREATE TRIGGER "mapping_versions_budget_after_insert" AFTER INSERT ON "mapping_versions" BEGIN
  UPDATE "mapping_versions" SET "superseded" = 1
  WHERE "mapping_id" = NEW."mapping_id" AND "version" < NEW."version" AND "superseded" = 0;
  INSERT INTO "mapping_totals" ("user_id", "history_bytes")
    VALUES (NEW."user_id", NEW."bytes")
    ON CONFLICT ("user_id") DO UPDATE SET "history_bytes" = "history_bytes" + excluded."history_bytes";
  DELETE FROM "mapping_versions" WHERE "id" IN (
    SELECT "id" FROM (
      SELECT "id", sum("bytes") OVER (ORDER BY "id") - "bytes" AS "freed_before"
      FROM (SELECT "id", "bytes" FROM "mapping_versions"
        WHERE "user_id" = NEW."user_id" AND "superseded" = 1
          AND (SELECT "history_bytes" FROM "mapping_totals" WHERE "user_id" = NEW."user_id") > 10485760
        ORDER BY "id" LIMIT 1000))
    WHERE "freed_before" < (SELECT "history_bytes" FROM "mapping_totals" WHERE "user_id" = NEW."user_id")
      - 10485760);
END;--> statement-breakpoint
CREATE TRIGGER "mapping_versions_budget_after_delete" AFTER DELETE ON "mapping_versions" BEGIN
  UPDATE "mapping_totals" SET "history_bytes" = "history_bytes" - OLD."bytes" WHERE "user_id" = OLD."user_id";
END;--> statement-breakpoint
CREATE TRIGGER "deleted_mappings_budget_after_insert" AFTER INSERT ON "deleted_mappings" BEGIN
  INSERT INTO "mapping_totals" ("user_id", "history_bytes")
    VALUES (NEW."user_id", (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0)))
    ON CONFLICT ("user_id") DO UPDATE SET "history_bytes" = "history_bytes" + excluded."history_bytes";
END;--> statement-breakpoint
CREATE TRIGGER "deleted_mappings_budget_after_delete" AFTER DELETE ON "deleted_mappings" BEGIN
  UPDATE "mapping_totals" SET "history_bytes" = "history_bytes" - (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0))
  WHERE "user_id" = OLD."user_id";
END;
