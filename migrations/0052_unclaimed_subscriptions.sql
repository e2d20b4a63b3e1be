CREATE TABLE `unclaimed_subscriptions` (
	`subscription_id` text PRIMARY KEY NOT NULL,
	`last_transaction_id` text NOT NULL,
	`last_payment_at` integer NOT NULL,
	`cancelled_at` integer
);
--> statement-breakpoint
CREATE INDEX `unclaimed_subscriptions_open_idx` ON `unclaimed_subscriptions` (`cancelled_at`,`last_payment_at`);--> statement-breakpoint
-- Issue 39: a payment no stored subscription holds belongs to the account with its payer's email (stored lowercase).
UPDATE `paypal_transactions` SET `user_id` = (SELECT `id` FROM `users` WHERE `users`.`email` = `paypal_transactions`.`payer_email`)
WHERE `user_id` IS NULL
  AND EXISTS (SELECT 1 FROM `users` WHERE `users`.`email` = `paypal_transactions`.`payer_email`)
  AND (`recurring_payment_id` IS NULL
    OR NOT EXISTS (SELECT 1 FROM `subscriptions` WHERE `subscriptions`.`subscription_id` = `paypal_transactions`.`recurring_payment_id`));
--> statement-breakpoint
-- The subscriptions that paid already but that no account stores, each with its latest completed payment.
INSERT INTO `unclaimed_subscriptions` (`subscription_id`, `last_transaction_id`, `last_payment_at`)
SELECT t.`recurring_payment_id`, t.`transaction_id`, coalesce(t.`received_at`, t.`created_at`)
FROM `paypal_transactions` t
WHERE t.`recurring_payment_id` IS NOT NULL AND t.`parent_transaction_id` IS NULL AND lower(t.`payment_status`) = 'completed'
  AND NOT EXISTS (SELECT 1 FROM `subscriptions` WHERE `subscriptions`.`subscription_id` = t.`recurring_payment_id`)
  AND t.`id` = (SELECT t2.`id` FROM `paypal_transactions` t2
    WHERE t2.`recurring_payment_id` = t.`recurring_payment_id` AND t2.`parent_transaction_id` IS NULL
      AND lower(t2.`payment_status`) = 'completed'
    ORDER BY coalesce(t2.`received_at`, t2.`created_at`) DESC, t2.`id` DESC LIMIT 1);
