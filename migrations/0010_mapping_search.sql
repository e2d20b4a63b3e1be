-- Hand-written: a trigram full-text index over every mapping's URL and HTML, so that the mappings' search (a
-- case-insensitive substring of either, SPEC.md) probes an index instead of reading every mapping's HTML
-- (worker/models/mappings.ts). External content: the index holds the trigrams, not a second copy of the text.
-- Kept by the triggers below; D1's `wrangler d1 export` refuses databases with virtual tables, so backups use
-- Time Travel (docs/decisions.md).
CREATE VIRTUAL TABLE `url_mappings_search` USING fts5(
  `url`, `html_content`, content='url_mappings', content_rowid='id', tokenize='trigram'
);--> statement-breakpoint
CREATE TRIGGER `url_mappings_search_after_insert` AFTER INSERT ON `url_mappings` BEGIN
  INSERT INTO `url_mappings_search` (`rowid`, `url`, `html_content`) VALUES (NEW.`id`, NEW.`url`, NEW.`html_content`);
END;--> statement-breakpoint
CREATE TRIGGER `url_mappings_search_after_delete` AFTER DELETE ON `url_mappings` BEGIN
  INSERT INTO `url_mappings_search` (`url_mappings_search`, `rowid`, `url`, `html_content`)
    VALUES ('delete', OLD.`id`, OLD.`url`, OLD.`html_content`);
END;--> statement-breakpoint
CREATE TRIGGER `url_mappings_search_after_update` AFTER UPDATE OF `url`, `html_content` ON `url_mappings` BEGIN
  INSERT INTO `url_mappings_search` (`url_mappings_search`, `rowid`, `url`, `html_content`)
    VALUES ('delete', OLD.`id`, OLD.`url`, OLD.`html_content`);
  INSERT INTO `url_mappings_search` (`rowid`, `url`, `html_content`) VALUES (NEW.`id`, NEW.`url`, NEW.`html_content`);
END;--> statement-breakpoint
INSERT INTO `url_mappings_search` (`url_mappings_search`) VALUES ('rebuild');
