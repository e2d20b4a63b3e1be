-- An exact mapping's counts on its URL's url_stats row go with the mapping (worker/db/raw.ts).
CREATE TRIGGER "url_stats_mapping_after_delete" AFTER DELETE ON "url_mappings" BEGIN
  UPDATE "url_stats" SET "mapping_id" = NULL, "mapping_requests" = 0, "mapping_deliveries" = 0
  WHERE "user_id" = OLD."user_id" AND "url" = OLD."normalized_url" AND "mapping_id" = OLD."id";
END;--> statement-breakpoint
CREATE TRIGGER "url_stats_mapping_after_move" AFTER UPDATE OF "normalized_url" ON "url_mappings"
WHEN OLD."normalized_url" <> NEW."normalized_url" BEGIN
  INSERT INTO "mapping_stats" ("mapping_id", "requests", "deliveries", "last_accessed")
  SELECT OLD."id", "mapping_requests", "mapping_deliveries", "last_accessed" FROM "url_stats"
  WHERE "user_id" = OLD."user_id" AND "url" = OLD."normalized_url" AND "mapping_id" = OLD."id"
  ON CONFLICT ("mapping_id") DO UPDATE SET "requests" = "requests" + excluded."requests",
    "deliveries" = "deliveries" + excluded."deliveries",
    "last_accessed" = max("last_accessed", excluded."last_accessed");
  UPDATE "url_stats" SET "mapping_id" = NULL, "mapping_requests" = 0, "mapping_deliveries" = 0
  WHERE "user_id" = OLD."user_id" AND "url" = OLD."normalized_url" AND "mapping_id" = OLD."id";
END;
