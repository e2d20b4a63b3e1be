-- The webhook triggers record what each mapping event says as facts (worker/db/raw.ts); the body is rendered in
-- TypeScript (worker/models/webhook-payload.ts). Events written before this keep their stored payload.
CREATE TRIGGER "webhook_events_after_insert" AFTER INSERT ON "url_mappings"
WHEN NEW."published_at" IS NOT NULL AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", 'mapping.published',
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
CREATE TRIGGER "webhook_events_after_update" AFTER UPDATE OF "url", "html_content", "placement", "seo",
  "published_at", "publish_at", "unpublish_at" ON "url_mappings"
WHEN ((OLD."published_at" IS NULL) <> (NEW."published_at" IS NULL) OR OLD."url" IS NOT NEW."url"
  OR OLD."html_content" IS NOT NEW."html_content" OR OLD."placement" IS NOT NEW."placement"
  OR OLD."seo" IS NOT NEW."seo" OR OLD."publish_at" IS NOT NEW."publish_at"
  OR OLD."unpublish_at" IS NOT NEW."unpublish_at") AND EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = NEW."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", CASE
      WHEN OLD."published_at" IS NULL AND NEW."published_at" IS NOT NULL THEN 'mapping.published'
      WHEN OLD."published_at" IS NOT NULL AND NEW."published_at" IS NULL THEN 'mapping.unpublished'
      ELSE 'mapping.changed' END,
    json_object('id', NEW."id", 'url', NEW."url", 'publishedAt', NEW."published_at", 'publishAt', NEW."publish_at",
      'unpublishAt', NEW."unpublish_at", 'changedBy', NEW."changed_by"),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = NEW."user_id";
END;--> statement-breakpoint
CREATE TRIGGER "webhook_events_after_delete" AFTER DELETE ON "url_mappings"
WHEN EXISTS (SELECT 1 FROM "webhooks" WHERE "user_id" = OLD."user_id") AND EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id") BEGIN
  INSERT INTO "webhook_deliveries" ("webhook_id", "event_id", "event", "facts", "next_attempt_at")
  SELECT w."id", e."value", 'mapping.deleted',
    json_object('id', OLD."id", 'url', OLD."url", 'publishedAt', OLD."published_at", 'publishAt', OLD."publish_at",
      'unpublishAt', OLD."unpublish_at", 'changedBy', NULL),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN "webhooks" AS w
  WHERE w."user_id" = OLD."user_id";
END;
