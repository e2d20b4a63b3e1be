CREATE TABLE `deleted_mappings` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`normalized_url` text NOT NULL,
	`html_content` text NOT NULL,
	`placement` text,
	`seo` text,
	`published_at` integer,
	`publish_at` integer,
	`unpublish_at` integer,
	`changed_by` text,
	`created_at` integer NOT NULL,
	`deleted_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deleted_mappings_user_idx` ON `deleted_mappings` (`user_id`,`deleted_at`);--> statement-breakpoint
CREATE INDEX `deleted_mappings_deleted_idx` ON `deleted_mappings` (`deleted_at`);--> statement-breakpoint
CREATE TABLE `url_daily_usage` (
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`day` text NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`crawler_requests` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `url`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`webhook_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`response_status` integer,
	`error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_attempt_at` integer,
	FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_idx` ON `webhook_deliveries` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_attempt_at`) WHERE "webhook_deliveries"."next_attempt_at" is not null;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`secret_encrypted` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhooks_user_idx` ON `webhooks` (`user_id`,`created_at`);--> statement-breakpoint
-- Hand-written: the webhooks' outbox (docs/webhooks.md). A change to a mapping writes one delivery per webhook of
-- its customer in the same transaction, so no path that changes a mapping (API, dashboard, admin, the minute cron,
-- imports, restores) can skip its event. A new draft writes none; the first publication is `mapping.published`. One
-- event id per event, shared by every webhook it goes to: json_each makes the random id once, as the outer loop of a
-- CROSS JOIN (which SQLite never reorders). A mapping deleted with its customer writes none (the user row is gone
-- by then, and the webhooks go with it). The payload holds no HTML: receivers fetch it through the API.
CREATE TRIGGER `webhook_events_after_insert` AFTER INSERT ON `url_mappings`
WHEN NEW.`published_at` IS NOT NULL AND EXISTS (SELECT 1 FROM `webhooks` WHERE `user_id` = NEW.`user_id`) BEGIN
  INSERT INTO `webhook_deliveries` (`webhook_id`, `event_id`, `event`, `payload`, `next_attempt_at`)
  SELECT w.`id`, e.`value`, t.`value`,
    json_object('id', e.`value`, 'type', t.`value`, 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
      'data', json_object('mapping', json_object('id', NEW.`id`, 'url', NEW.`url`,
        'status', 'published',
        'publishAt', CASE WHEN NEW.`publish_at` IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(NEW.`publish_at` AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(NEW.`publish_at` AS INTEGER) % 1000) END,
        'unpublishAt', CASE WHEN NEW.`unpublish_at` IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(NEW.`unpublish_at` AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(NEW.`unpublish_at` AS INTEGER) % 1000) END,
        'changedBy', NEW.`changed_by`))),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN json_each(json_array('mapping.published')) AS t
  CROSS JOIN `webhooks` AS w
  WHERE w.`user_id` = NEW.`user_id`;
END;--> statement-breakpoint
CREATE TRIGGER `webhook_events_after_update` AFTER UPDATE OF `url`, `html_content`, `placement`, `seo`,
  `published_at`, `publish_at`, `unpublish_at` ON `url_mappings`
WHEN ((OLD.`published_at` IS NULL) <> (NEW.`published_at` IS NULL) OR OLD.`url` IS NOT NEW.`url`
  OR OLD.`html_content` IS NOT NEW.`html_content` OR OLD.`placement` IS NOT NEW.`placement`
  OR OLD.`seo` IS NOT NEW.`seo` OR OLD.`publish_at` IS NOT NEW.`publish_at`
  OR OLD.`unpublish_at` IS NOT NEW.`unpublish_at`) AND EXISTS (SELECT 1 FROM `webhooks` WHERE `user_id` = NEW.`user_id`) BEGIN
  INSERT INTO `webhook_deliveries` (`webhook_id`, `event_id`, `event`, `payload`, `next_attempt_at`)
  SELECT w.`id`, e.`value`, t.`value`,
    json_object('id', e.`value`, 'type', t.`value`, 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
      'data', json_object('mapping', json_object('id', NEW.`id`, 'url', NEW.`url`,
        'status', CASE WHEN NEW.`published_at` IS NULL THEN 'draft' ELSE 'published' END,
        'publishAt', CASE WHEN NEW.`publish_at` IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(NEW.`publish_at` AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(NEW.`publish_at` AS INTEGER) % 1000) END,
        'unpublishAt', CASE WHEN NEW.`unpublish_at` IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(NEW.`unpublish_at` AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(NEW.`unpublish_at` AS INTEGER) % 1000) END,
        'changedBy', NEW.`changed_by`))),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN json_each(json_array(CASE
    WHEN OLD.`published_at` IS NULL AND NEW.`published_at` IS NOT NULL THEN 'mapping.published'
    WHEN OLD.`published_at` IS NOT NULL AND NEW.`published_at` IS NULL THEN 'mapping.unpublished'
    ELSE 'mapping.changed' END)) AS t
  CROSS JOIN `webhooks` AS w
  WHERE w.`user_id` = NEW.`user_id`;
END;--> statement-breakpoint
CREATE TRIGGER `webhook_events_after_delete` AFTER DELETE ON `url_mappings`
WHEN EXISTS (SELECT 1 FROM `webhooks` WHERE `user_id` = OLD.`user_id`) AND EXISTS (SELECT 1 FROM `users` WHERE `id` = OLD.`user_id`) BEGIN
  INSERT INTO `webhook_deliveries` (`webhook_id`, `event_id`, `event`, `payload`, `next_attempt_at`)
  SELECT w.`id`, e.`value`, t.`value`,
    json_object('id', e.`value`, 'type', t.`value`, 'createdAt', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
      'data', json_object('mapping', json_object('id', OLD.`id`, 'url', OLD.`url`,
        'status', CASE WHEN OLD.`published_at` IS NULL THEN 'draft' ELSE 'published' END,
        'publishAt', CASE WHEN OLD.`publish_at` IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(OLD.`publish_at` AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(OLD.`publish_at` AS INTEGER) % 1000) END,
        'unpublishAt', CASE WHEN OLD.`unpublish_at` IS NULL THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%S', CAST(OLD.`unpublish_at` AS INTEGER) / 1000, 'unixepoch') || printf('.%03dZ', CAST(OLD.`unpublish_at` AS INTEGER) % 1000) END,
        'changedBy', NULL))),
    CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM json_each(json_array(lower(hex(randomblob(16))))) AS e
  CROSS JOIN json_each(json_array('mapping.deleted')) AS t
  CROSS JOIN `webhooks` AS w
  WHERE w.`user_id` = OLD.`user_id`;
END;