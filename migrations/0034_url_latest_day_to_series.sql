-- A URL's newest day, replaced by a later one, joins its series (worker/db/raw.ts, url_stats_latest_day_to_series).
CREATE TRIGGER "url_stats_latest_day_to_series" AFTER UPDATE OF "latest_day" ON "url_stats"
WHEN OLD."latest_day" <> '' AND NEW."latest_day" <> OLD."latest_day" BEGIN
  INSERT INTO "url_daily_usage" ("user_id", "url", "day", "requests", "deliveries", "crawler_requests")
  VALUES (OLD."user_id", OLD."url", OLD."latest_day", OLD."latest_day_requests", OLD."latest_day_deliveries",
    OLD."latest_day_crawler_requests")
  ON CONFLICT ("user_id", "url", "day") DO UPDATE SET "requests" = "requests" + excluded."requests",
    "deliveries" = "deliveries" + excluded."deliveries",
    "crawler_requests" = "crawler_requests" + excluded."crawler_requests";
END;
