-- Hand-edited: where two first uses at once issued a customer two keys, the first one issued stays (a customer had
-- been shown one of them; the later one is voided), so that the unique index can be made.
DELETE FROM `api_keys` WHERE `kind` = 'customer'
  AND `id` NOT IN (SELECT min(`id`) FROM `api_keys` WHERE `kind` = 'customer' GROUP BY `user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_one_customer_key_idx` ON `api_keys` (`user_id`) WHERE "api_keys"."kind" = 'customer';
