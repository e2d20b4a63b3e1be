ALTER TABLE `paypal_transactions` ADD `parent_transaction_id` text;--> statement-breakpoint
ALTER TABLE `paypal_transactions` ADD `period_start` integer;--> statement-breakpoint
ALTER TABLE `paypal_transactions` ADD `period_end` integer;--> statement-breakpoint
CREATE INDEX `paypal_transactions_parent_idx` ON `paypal_transactions` (`parent_transaction_id`);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `product_version_id` integer REFERENCES product_versions(id);--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `paid_through` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `replaced_by` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `checked_at` integer;--> statement-breakpoint
CREATE INDEX `subscriptions_status_idx` ON `subscriptions` (`status`,`checked_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `plan_source` text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `plan_paid_through` integer;--> statement-breakpoint
CREATE INDEX `users_billing_period_end_idx` ON `users` (`billing_period_end`);--> statement-breakpoint
CREATE INDEX `users_plan_paid_through_idx` ON `users` (`plan_source`,`plan_paid_through`);