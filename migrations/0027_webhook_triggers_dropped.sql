-- The webhook triggers go before webhook_deliveries is rebuilt (0028: SQLite checks every trigger that names a table
-- it renames), and come back recording facts (0029).
DROP TRIGGER IF EXISTS `webhook_events_after_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_events_after_update`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `webhook_events_after_delete`;
