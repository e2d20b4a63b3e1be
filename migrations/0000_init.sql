CREATE TABLE `analytics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`url` text NOT NULL,
	`mapping_id` integer,
	`timestamp` integer NOT NULL,
	`user_agent` text,
	`referer` text,
	`user_id` text NOT NULL,
	`is_content_delivery` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `analytics_message_id_unique` ON `analytics` (`message_id`);--> statement-breakpoint
CREATE INDEX `analytics_user_idx` ON `analytics` (`user_id`,`timestamp`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`key_hash` text NOT NULL,
	`key_encrypted` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_user_idx` ON `api_keys` (`user_id`);--> statement-breakpoint
CREATE TABLE `api_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`timestamp` integer NOT NULL,
	`endpoint` text NOT NULL,
	`status_code` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `api_requests_user_idx` ON `api_requests` (`user_id`,`timestamp`);--> statement-breakpoint
CREATE TABLE `billing_period_resets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`reset_date` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_period_resets_user_date_idx` ON `billing_period_resets` (`user_id`,`reset_date`);--> statement-breakpoint
CREATE TABLE `login_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`success` integer NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `login_attempts_user_idx` ON `login_attempts` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_attempts_ip_idx` ON `login_attempts` (`ip_address`,`created_at`);--> statement-breakpoint
CREATE TABLE `login_otp_codes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`code` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used` integer DEFAULT false NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `login_otp_codes_user_idx` ON `login_otp_codes` (`user_id`);--> statement-breakpoint
CREATE INDEX `login_otp_codes_expiry_idx` ON `login_otp_codes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `mapping_stats` (
	`mapping_id` integer PRIMARY KEY NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`last_accessed` integer NOT NULL,
	FOREIGN KEY (`mapping_id`) REFERENCES `url_mappings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `paypal_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text,
	`payer_email` text,
	`original_email` text,
	`email_copy` text,
	`payer_first_name` text,
	`payer_last_name` text,
	`payer_id` text,
	`payer_status` text,
	`product_version_id` integer,
	`product_name` text,
	`product_type` text,
	`amount` text,
	`currency` text,
	`fee` text,
	`tax` text,
	`transaction_id` text NOT NULL,
	`recurring_payment_id` text,
	`transaction_type` text,
	`payment_status` text,
	`payment_type` text,
	`address_name` text,
	`address_street` text,
	`address_city` text,
	`address_state` text,
	`address_zip` text,
	`address_country` text,
	`address_country_code` text,
	`residence_country` text,
	`address_status` text,
	`subscription_type` text,
	`payment_cycle` text,
	`next_payment_date` text,
	`profile_status` text,
	`receiver_email` text,
	`receiver_id` text,
	`ipn_track_id` text,
	`notify_version` text,
	`verify_sign` text,
	`raw_payload` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`received_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`product_version_id`) REFERENCES `product_versions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `paypal_transactions_transaction_id_unique` ON `paypal_transactions` (`transaction_id`);--> statement-breakpoint
CREATE INDEX `paypal_transactions_user_idx` ON `paypal_transactions` (`user_id`);--> statement-breakpoint
CREATE INDEX `paypal_transactions_payer_idx` ON `paypal_transactions` (`payer_email`);--> statement-breakpoint
CREATE INDEX `paypal_transactions_received_idx` ON `paypal_transactions` (`received_at`);--> statement-breakpoint
CREATE INDEX `paypal_transactions_recurring_idx` ON `paypal_transactions` (`recurring_payment_id`);--> statement-breakpoint
CREATE TABLE `product_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`events_limit` integer,
	`websites_limit` integer,
	`dynamic_content_limit` integer,
	`paypal_plan_id` text,
	`price_cents` integer,
	`is_default` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `product_versions_single_default_idx` ON `product_versions` (`is_default`) WHERE "product_versions"."is_default" = 1;--> statement-breakpoint
CREATE TABLE `rate_limit_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bucket` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `rate_limit_events_bucket_idx` ON `rate_limit_events` (`bucket`,`created_at`);--> statement-breakpoint
CREATE TABLE `smtp_config` (
	`id` integer PRIMARY KEY NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`user` text NOT NULL,
	`password_encrypted` text NOT NULL,
	`from_address` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` text NOT NULL,
	`subscription_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_subscription_id_unique` ON `subscriptions` (`subscription_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `url_daily_stats` (
	`user_id` text NOT NULL,
	`url` text NOT NULL,
	`day` text NOT NULL,
	`hits` integer DEFAULT 0 NOT NULL,
	`deliveries` integer DEFAULT 0 NOT NULL,
	`last_accessed` integer NOT NULL,
	PRIMARY KEY(`user_id`, `url`, `day`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `url_daily_stats_day_idx` ON `url_daily_stats` (`user_id`,`day`);--> statement-breakpoint
CREATE TABLE `url_mappings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`normalized_url` text NOT NULL,
	`html_content` text NOT NULL,
	`published_at` integer,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `url_mappings_user_idx` ON `url_mappings` (`user_id`,`normalized_url`);--> statement-breakpoint
CREATE INDEX `url_mappings_created_idx` ON `url_mappings` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `usage_counters` (
	`user_id` text PRIMARY KEY NOT NULL,
	`total_requests` integer DEFAULT 0 NOT NULL,
	`period_requests` integer DEFAULT 0 NOT NULL,
	`period_deliveries` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`email_verified` integer DEFAULT false NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`product_version_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`billing_period_start` integer,
	`billing_period_end` integer,
	`password_hash` text,
	`request_limit` integer,
	FOREIGN KEY (`product_version_id`) REFERENCES `product_versions`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_product_version_idx` ON `users` (`product_version_id`);--> statement-breakpoint
CREATE TABLE `verification_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `verification_tokens_token_unique` ON `verification_tokens` (`token`);--> statement-breakpoint
CREATE INDEX `verification_tokens_user_idx` ON `verification_tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `verification_tokens_expiry_idx` ON `verification_tokens` (`expires_at`);