ALTER TABLE `paypal_transactions` ADD `parent_transaction_id` text;--> statement-breakpoint
ALTER TABLE `paypal_transactions` ADD `period_start` integer;--> statement-breakpoint
ALTER TABLE `paypal_transactions` ADD `period_end` integer;--> statement-breakpoint
CREATE INDEX `paypal_transactions_parent_idx` ON `paypal_transactions` (`parent_transaction_id`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `product_version_id` integer REFERENCES product_versions(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `paid_through` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `replaced_by` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `checked_at` integer;--> statement-breakpoint
CREATE INDEX `subscriptions_status_idx` ON `subscriptions` (`status`,`checked_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `plan_source` text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `plan_paid_through` integer;--> statement-breakpoint
CREATE INDEX `users_billing_period_end_idx` ON `users` (`billing_period_end`);--> statement-breakpoint
CREATE INDEX `users_plan_paid_through_idx` ON `users` (`plan_source`,`plan_paid_through`);--> statement-breakpoint
-- Backfill (hand-written). The plan each stored subscription pays for.
UPDATE `subscriptions` SET `product_version_id` = (SELECT `id` FROM `product_versions` WHERE `paypal_plan_id` = `subscriptions`.`plan_id` LIMIT 1) WHERE `plan_id` IS NOT NULL;--> statement-breakpoint
-- A plan held through an active subscription stays paid until the current period ends (the daily job then asks PayPal).
UPDATE `users` SET `plan_source` = 'paypal', `plan_paid_through` = `billing_period_end` WHERE `product_version_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `subscriptions` `s` WHERE `s`.`user_id` = `users`.`id` AND `s`.`status` = 'active' AND `s`.`product_version_id` = `users`.`product_version_id`);--> statement-breakpoint
UPDATE `subscriptions` SET `paid_through` = (SELECT `u`.`plan_paid_through` FROM `users` `u` WHERE `u`.`id` = `subscriptions`.`user_id` AND `u`.`plan_source` = 'paypal' AND `u`.`product_version_id` = `subscriptions`.`product_version_id`) WHERE `status` = 'active';--> statement-breakpoint
-- Any other plan than the default was given by an admin.
UPDATE `users` SET `plan_source` = 'admin' WHERE `plan_source` = 'default' AND `product_version_id` IS NOT NULL AND `product_version_id` NOT IN (SELECT `id` FROM `product_versions` WHERE `is_default` = 1);--> statement-breakpoint
UPDATE `paypal_transactions` SET `parent_transaction_id` = json_extract(`raw_payload`, '$.parent_txn_id') WHERE `raw_payload` IS NOT NULL AND json_valid(`raw_payload`);--> statement-breakpoint
-- Completed payments of known subscriptions paid for the period PayPal named (payment date to next payment date).
UPDATE `paypal_transactions` SET `period_start` = `received_at`, `period_end` = unixepoch(`next_payment_date`) * 1000 WHERE lower(`payment_status`) = 'completed' AND `received_at` IS NOT NULL AND unixepoch(`next_payment_date`) IS NOT NULL AND `recurring_payment_id` IN (SELECT `subscription_id` FROM `subscriptions`);
