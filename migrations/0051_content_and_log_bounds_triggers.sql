-- The last unbounded bytes of an account (worker/db/raw.ts, docs/scaling.md): mapping_totals.content_bytes sums a
-- customer's mappings as a version is measured, for their plan's content budget; webhooks.finished_deliveries counts
-- each webhook's delivered and failed deliveries, of which the log keeps the newest 1,000. Existing rows are counted
-- here; a log already past its bound is pruned from its next finished delivery on.
INSERT INTO "mapping_totals" ("user_id", "content_bytes")
SELECT "user_id", sum(64 + length(CAST("url" AS BLOB)) + length(CAST("html_content" AS BLOB))
    + coalesce(length(CAST("placement" AS BLOB)), 0) + coalesce(length(CAST("seo" AS BLOB)), 0)
    + coalesce(length(CAST("experiment" AS BLOB)), 0))
FROM "url_mappings" WHERE "user_id" IN (SELECT "id" FROM "users") GROUP BY "user_id"
ON CONFLICT ("user_id") DO UPDATE SET "content_bytes" = excluded."content_bytes";--> statement-breakpoint
UPDATE "webhooks" SET "finished_deliveries" = (SELECT count(*) FROM "webhook_deliveries" d
  WHERE d."webhook_id" = "webhooks"."id" AND d."status" <> 'pending');--> statement-breakpoint
CREATE TRIGGER "mapping_content_after_insert" AFTER INSERT ON "url_mappings" BEGIN
  INSERT INTO "mapping_totals" ("user_id", "content_bytes")
    VALUES (NEW."user_id", (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0)))
    ON CONFLICT ("user_id") DO UPDATE SET "content_bytes" = "content_bytes" + excluded."content_bytes";
END;--> statement-breakpoint
CREATE TRIGGER "mapping_content_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo", "experiment"
  ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "content_bytes" = "content_bytes" + (64 + length(CAST(NEW."url" AS BLOB)) + length(CAST(NEW."html_content" AS BLOB))
    + coalesce(length(CAST(NEW."placement" AS BLOB)), 0) + coalesce(length(CAST(NEW."seo" AS BLOB)), 0)
    + coalesce(length(CAST(NEW."experiment" AS BLOB)), 0)) - (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0))
  WHERE "user_id" = NEW."user_id";
END;--> statement-breakpoint
CREATE TRIGGER "mapping_content_after_delete" AFTER DELETE ON "url_mappings" BEGIN
  UPDATE "mapping_totals" SET "content_bytes" = "content_bytes" - (64 + length(CAST(OLD."url" AS BLOB)) + length(CAST(OLD."html_content" AS BLOB))
    + coalesce(length(CAST(OLD."placement" AS BLOB)), 0) + coalesce(length(CAST(OLD."seo" AS BLOB)), 0)
    + coalesce(length(CAST(OLD."experiment" AS BLOB)), 0))
  WHERE "user_id" = OLD."user_id";
END;--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_log_after_insert" AFTER INSERT ON "webhook_deliveries"
WHEN NEW."status" <> 'pending' BEGIN
  UPDATE "webhooks" SET "finished_deliveries" = "finished_deliveries" + 1 WHERE "id" = NEW."webhook_id";
  DELETE FROM "webhook_deliveries" WHERE "id" IN (
    SELECT "id" FROM "webhook_deliveries"
    WHERE "webhook_id" = NEW."webhook_id" AND "status" <> 'pending'
      AND (SELECT "finished_deliveries" FROM "webhooks" WHERE "id" = NEW."webhook_id") > 1000
    ORDER BY "id" LIMIT 100);
END;--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_log_after_finish" AFTER UPDATE OF "status" ON "webhook_deliveries"
WHEN OLD."status" = 'pending' AND NEW."status" <> 'pending' BEGIN
  UPDATE "webhooks" SET "finished_deliveries" = "finished_deliveries" + 1 WHERE "id" = NEW."webhook_id";
  DELETE FROM "webhook_deliveries" WHERE "id" IN (
    SELECT "id" FROM "webhook_deliveries"
    WHERE "webhook_id" = NEW."webhook_id" AND "status" <> 'pending'
      AND (SELECT "finished_deliveries" FROM "webhooks" WHERE "id" = NEW."webhook_id") > 1000
    ORDER BY "id" LIMIT 100);
END;--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_log_after_delete" AFTER DELETE ON "webhook_deliveries"
WHEN OLD."status" <> 'pending' BEGIN
  UPDATE "webhooks" SET "finished_deliveries" = "finished_deliveries" - 1 WHERE "id" = OLD."webhook_id";
END;
