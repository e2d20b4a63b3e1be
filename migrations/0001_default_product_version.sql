-- Every database has a default product version: new users get it. Its limits are a free tier's.
INSERT INTO product_versions (name, description, events_limit, websites_limit, dynamic_content_limit, price_cents, is_default)
VALUES ('Free', 'Get started: one website, a handful of content updates.', 10, 1, 1000, 0, 1);
