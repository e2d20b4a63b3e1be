ALTER TABLE `mapping_totals` ADD `content_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `finished_deliveries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_finished_idx` ON `webhook_deliveries` (`webhook_id`,`id`) WHERE "webhook_deliveries"."status" <> 'pending';