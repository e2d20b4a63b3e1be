-- Visitors' daily counts live in the analytics reducers now (worker/analytics/reducer-visitors.ts).
DROP TABLE `visitor_daily_usage`;