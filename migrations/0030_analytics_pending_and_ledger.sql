-- Hand-edited: the ledger of counted page views keeps ids only (the events are in the R2 archive, written before
-- anything is counted) and is a WITHOUT ROWID table (drizzle's schema cannot say so): one row written per batch and
-- second instead of two, and no gzipped copy of the events in D1. The ids of the old table's window move over, so a
-- view redelivered across the deploy is still recognised. Counted views now wait in analytics_pending for the
-- minute cron's fold (worker/analytics/fold.ts).
CREATE TABLE `analytics_ledger` (
	`second` integer NOT NULL,
	`batch` text NOT NULL,
	`message_ids` text NOT NULL,
	PRIMARY KEY(`second`, `batch`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `analytics_ledger` (`second`, `batch`, `message_ids`)
  SELECT `second`, `batch`, `message_ids` FROM `analytics_batches`;
--> statement-breakpoint
CREATE TABLE `analytics_pending` (
	`seq` integer PRIMARY KEY NOT NULL,
	`batch` text NOT NULL,
	`views` integer NOT NULL,
	`events` text NOT NULL
);
--> statement-breakpoint
DROP TABLE `analytics_batches`;
