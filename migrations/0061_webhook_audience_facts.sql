-- Webhook payloads carry a mapping's audience and priority (docs/audiences.md), and a change of either is a
-- mapping.changed event: the mapping events' triggers keep both in their facts (worker/db/raw.ts).
DROP TRIGGER IF EXISTS "webhook_events_after_delete";--> statement-breakpoint
CREATE TRIGGER "webhook_events_after_delete" AFTER DELETE ON "url_mappings"
WHEN EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = OLD."user_id") AND EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", 'mapping.deleted',
    json_object('id', OLD."id", 'url', OLD."url", 'publishedAt', OLD."published_at", 'publishAt', OLD."publish_at",
      'unpublishAt', OLD."unpublish_at", 'changedBy', NULL, 'audience', json(OLD."audience"),
      'priority', OLD."priority"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = OLD."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "webhook_events_after_insert";--> statement-breakpoint
CREATE TRIGGER "webhook_events_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."published_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", 'mapping.published',
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by", 'audience', json(NEW."audience"),
      'priority', NEW."priority"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "webhook_events_after_update";--> statement-breakpoint
CREATE TRIGGER "webhook_events_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo", "published_at", "publish_at", "unpublish_at",
  "audience", "priority" ON "url_mappings"
WHEN ((OLD."published_at" IS NULL) <> (NEW."published_at" IS NULL) OR OLD."url" IS NOT NEW."url"
  OR OLD."html_content" IS NOT NEW."html_content" OR OLD."placement" IS NOT NEW."placement"
  OR OLD."seo" IS NOT NEW."seo" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at" OR OLD."audience" IS NOT NEW."audience"
  OR OLD."priority" IS NOT NEW."priority") AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", CASE
      WHEN OLD."published_at" IS NULL AND NEW."published_at" IS NOT NULL THEN 'mapping.published'
      WHEN OLD."published_at" IS NOT NULL AND NEW."published_at" IS NULL THEN 'mapping.unpublished'
      ELSE 'mapping.changed' END,
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by", 'audience', json(NEW."audience"),
      'priority', NEW."priority"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "webhook_experiment_after_insert";--> statement-breakpoint
CREATE TRIGGER "webhook_experiment_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."experiment" IS NOT NULL AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", 'experiment.started',
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by", 'audience', json(NEW."audience"),
      'priority', NEW."priority"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
DROP TRIGGER IF EXISTS "webhook_experiment_after_update";--> statement-breakpoint
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
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by", 'audience', json(NEW."audience"),
      'priority', NEW."priority"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;
