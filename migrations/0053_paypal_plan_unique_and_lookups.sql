CREATE TABLE `subscription_lookups` (
	`subscription_id` text PRIMARY KEY NOT NULL,
	`checked_at` integer NOT NULL,
	`outcome` text NOT NULL
);
--> statement-breakpoint
-- Added by hand: before the index, versions that share a PayPal plan id keep it only on the oldest, the version
-- every buyer of that plan was given (`findProductVersionByPlanId` read the first); the others lose it and say
-- "Contact us to switch to this plan" (docs/decisions.md, Issue 39). An empty id is none.
UPDATE `product_versions` SET `paypal_plan_id` = NULL WHERE trim(`paypal_plan_id`) = '';--> statement-breakpoint
UPDATE `product_versions` SET `paypal_plan_id` = NULL WHERE `paypal_plan_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `product_versions` `o` WHERE `o`.`paypal_plan_id` = `product_versions`.`paypal_plan_id` AND `o`.`id` < `product_versions`.`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `product_versions_paypal_plan_idx` ON `product_versions` (`paypal_plan_id`);