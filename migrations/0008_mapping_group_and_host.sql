ALTER TABLE `url_mappings` ADD `group_url` text GENERATED ALWAYS AS ((case
        when lower(trim(url)) like 'https://%' then substr(lower(trim(url)), 9)
        when lower(trim(url)) like 'http://%' then substr(lower(trim(url)), 8)
        else lower(trim(url)) end)) VIRTUAL;--> statement-breakpoint
ALTER TABLE `url_mappings` ADD `host` text GENERATED ALWAYS AS ((case when instr(normalized_url, '/') > 0
        then substr(normalized_url, 1, instr(normalized_url, '/') - 1) else normalized_url end)) VIRTUAL;--> statement-breakpoint
CREATE INDEX `url_mappings_host_idx` ON `url_mappings` (`user_id`,`host`);--> statement-breakpoint
CREATE INDEX `url_mappings_group_idx` ON `url_mappings` (`user_id`,`group_url`,`created_at`);