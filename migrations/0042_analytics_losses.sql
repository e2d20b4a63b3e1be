CREATE TABLE `analytics_losses` (
	`day` text NOT NULL,
	`reason` text NOT NULL,
	`items` integer NOT NULL,
	PRIMARY KEY(`day`, `reason`)
);
