-- A customer's newest day, replaced by a later one, joins their days (worker/db/raw.ts, usage_counters_latest_day_to_series).
CREATE TRIGGER "usage_counters_latest_day_to_series" AFTER UPDATE OF "latest_day" ON "usage_counters"
WHEN OLD."latest_day" <> '' AND NEW."latest_day" <> OLD."latest_day" BEGIN
  INSERT INTO "daily_usage" ("user_id", "day", "requests", "deliveries", "crawler_requests", "unmapped_urls")
  VALUES (OLD."user_id", OLD."latest_day", OLD."latest_day_requests", OLD."latest_day_deliveries",
    OLD."latest_day_crawler_requests", OLD."latest_day_unmapped_urls")
  ON CONFLICT ("user_id", "day") DO UPDATE SET "requests" = "requests" + excluded."requests",
    "deliveries" = "deliveries" + excluded."deliveries",
    "crawler_requests" = "crawler_requests" + excluded."crawler_requests",
    "unmapped_urls" = "unmapped_urls" + excluded."unmapped_urls";
END;
