CREATE TABLE `reducer_layout` (
	`id` integer PRIMARY KEY NOT NULL,
	`shards` integer NOT NULL
);
