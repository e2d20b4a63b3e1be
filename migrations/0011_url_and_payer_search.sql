-- Hand-written: trigram full-text indexes for the two other substring searches, as 0010 does for mappings.
-- The Analytics tab's search over its URLs: url_stats has no integer key of its own (its rowid may change on
-- VACUUM), so the index keeps its own copy of each URL (short) with the customer's id, found again by the URL's
-- own trigrams when its row goes. Counter updates never touch the index: an upsert that updates fires no
-- INSERT trigger, and the URL never changes.
CREATE VIRTUAL TABLE `url_stats_search` USING fts5(`url`, `user_id` UNINDEXED, tokenize='trigram');--> statement-breakpoint
CREATE TRIGGER `url_stats_search_after_insert` AFTER INSERT ON `url_stats` BEGIN
  INSERT INTO `url_stats_search` (`url`, `user_id`) VALUES (NEW.`url`, NEW.`user_id`);
END;--> statement-breakpoint
CREATE TRIGGER `url_stats_search_after_delete` AFTER DELETE ON `url_stats` BEGIN
  DELETE FROM `url_stats_search`
    WHERE `url_stats_search` MATCH '"' || replace(OLD.`url`, '"', '""') || '"'
      AND `url` = OLD.`url` AND `user_id` = OLD.`user_id`;
END;--> statement-breakpoint
INSERT INTO `url_stats_search` (`url`, `user_id`) SELECT `url`, `user_id` FROM `url_stats`;--> statement-breakpoint
-- The transactions' payer email filter: external content, as for mappings.
CREATE VIRTUAL TABLE `paypal_transactions_search` USING fts5(
  `payer_email`, content='paypal_transactions', content_rowid='id', tokenize='trigram'
);--> statement-breakpoint
CREATE TRIGGER `paypal_transactions_search_after_insert` AFTER INSERT ON `paypal_transactions` BEGIN
  INSERT INTO `paypal_transactions_search` (`rowid`, `payer_email`) VALUES (NEW.`id`, NEW.`payer_email`);
END;--> statement-breakpoint
CREATE TRIGGER `paypal_transactions_search_after_delete` AFTER DELETE ON `paypal_transactions` BEGIN
  INSERT INTO `paypal_transactions_search` (`paypal_transactions_search`, `rowid`, `payer_email`)
    VALUES ('delete', OLD.`id`, OLD.`payer_email`);
END;--> statement-breakpoint
CREATE TRIGGER `paypal_transactions_search_after_update` AFTER UPDATE OF `payer_email` ON `paypal_transactions` BEGIN
  INSERT INTO `paypal_transactions_search` (`paypal_transactions_search`, `rowid`, `payer_email`)
    VALUES ('delete', OLD.`id`, OLD.`payer_email`);
  INSERT INTO `paypal_transactions_search` (`rowid`, `payer_email`) VALUES (NEW.`id`, NEW.`payer_email`);
END;--> statement-breakpoint
INSERT INTO `paypal_transactions_search` (`paypal_transactions_search`) VALUES ('rebuild');
