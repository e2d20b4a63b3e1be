-- A mapping's experiment id and goals in columns of their own, so the fold and limits never parse a customer's
-- JSON; experiments SQLite cannot read (nested too deep, before the cap) are read as none (worker/db/raw.ts).
CREATE TRIGGER "url_mappings_experiment_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."experiment" IS NOT NULL BEGIN
  UPDATE "url_mappings" SET ("experiment_id", "experiment_goals") =
    (SELECT e ->> '$.id', e -> '$.goals' FROM (SELECT (CASE WHEN json_valid(NEW."experiment") THEN NEW."experiment" END) AS e))
  WHERE "id" = NEW."id";
END;--> statement-breakpoint
CREATE TRIGGER "url_mappings_experiment_after_update" AFTER UPDATE OF "experiment" ON "url_mappings" BEGIN
  UPDATE "url_mappings" SET ("experiment_id", "experiment_goals") =
    (SELECT e ->> '$.id', e -> '$.goals' FROM (SELECT (CASE WHEN json_valid(NEW."experiment") THEN NEW."experiment" END) AS e))
  WHERE "id" = NEW."id";
END;--> statement-breakpoint
DROP TRIGGER "webhook_experiment_after_update";--> statement-breakpoint
CREATE TRIGGER "webhook_experiment_after_update" AFTER UPDATE OF "experiment" ON "url_mappings"
WHEN ((CASE WHEN json_valid(OLD."experiment") THEN OLD."experiment" END) ->> '$.id') IS NOT ((CASE WHEN json_valid(NEW."experiment") THEN NEW."experiment" END) ->> '$.id') AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", CASE
      WHEN NEW."experiment" IS NOT NULL THEN 'experiment.started'
      WHEN NEW."html_content" IS NOT OLD."html_content" AND NEW."html_content" IN
        (SELECT v."value" ->> '$.htmlContent' FROM json_each((CASE WHEN json_valid(OLD."experiment") THEN OLD."experiment" END), '$.variants') AS v)
        THEN 'experiment.promoted'
      ELSE 'experiment.stopped' END,
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
UPDATE "url_mappings" SET ("experiment_id", "experiment_goals") =
  (SELECT e ->> '$.id', e -> '$.goals' FROM (SELECT CASE WHEN json_valid("experiment") THEN "experiment" END AS e))
WHERE "experiment" IS NOT NULL;
