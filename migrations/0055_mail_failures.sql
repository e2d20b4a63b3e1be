CREATE TABLE `mail_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`recipient` text NOT NULL,
	`error` text NOT NULL,
	`blocks_mail` integer NOT NULL
);
