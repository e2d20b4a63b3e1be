-- The raw window keeps each second's events gzipped (worker/analytics/record.ts), about a sixth of their JSON.
-- Rows written before keep an empty blob: their events are in the R2 archive. DROP COLUMN rewrites the table,
-- which holds at most the raw window (ANALYTICS_RAW_RETENTION_DAYS).
ALTER TABLE `analytics_batches` ADD `events_gzip` blob DEFAULT x'' NOT NULL;--> statement-breakpoint
ALTER TABLE `analytics_batches` DROP COLUMN `events`;