/**
 * @module Writes a batch of analytics messages to D1 in one `batch()`: the raw `analytics` row and the counters
 * the dashboards read. Each counter statement runs only when the statement before it changed a row
 * (`changes() = 1`), so a message whose raw row already exists (a redelivery) counts nothing again.
 */
import { normalizeUrl } from "../contract/normalize-url";
import type { AnalyticsMessage } from "./message";

const insertRaw = `INSERT OR IGNORE INTO analytics
  (message_id, url, mapping_id, timestamp, user_agent, referer, user_id, is_content_delivery)
  SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?7)`;

const countUrlDay = `INSERT INTO url_daily_stats (user_id, url, day, hits, deliveries, last_accessed)
  SELECT ?1, ?2, ?3, 1, ?4, ?5 WHERE changes() = 1
  ON CONFLICT (user_id, url, day) DO UPDATE SET
    hits = hits + 1, deliveries = deliveries + excluded.deliveries,
    last_accessed = max(last_accessed, excluded.last_accessed)`;

const countUser = `INSERT INTO usage_counters (user_id, total_requests, period_requests, period_deliveries)
  SELECT ?1, 1, 1, ?2 WHERE changes() = 1
  ON CONFLICT (user_id) DO UPDATE SET
    total_requests = total_requests + 1, period_requests = period_requests + 1,
    period_deliveries = period_deliveries + excluded.period_deliveries`;

const countMapping = `INSERT INTO mapping_stats (mapping_id, requests, deliveries, last_accessed)
  SELECT ?1, 1, ?2, ?3 WHERE changes() = 1 AND EXISTS (SELECT 1 FROM url_mappings WHERE id = ?1)
  ON CONFLICT (mapping_id) DO UPDATE SET
    requests = requests + 1, deliveries = deliveries + excluded.deliveries,
    last_accessed = max(last_accessed, excluded.last_accessed)`;

export function utcDay(timestamp: number): string {
  return new Date(timestamp).toISOString().slice(0, 10);
}

export async function recordAnalytics(d1: D1Database, messages: readonly AnalyticsMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const statements: D1PreparedStatement[] = [];
  for (const m of messages) {
    const delivered = m.delivered ? 1 : 0;
    statements.push(
      d1.prepare(insertRaw).bind(m.id, m.url, m.mappingId, m.timestamp, m.userAgent, m.referer, m.userId, delivered),
      d1.prepare(countUrlDay).bind(m.userId, normalizeUrl(m.url), utcDay(m.timestamp), delivered, m.timestamp),
      d1.prepare(countUser).bind(m.userId, delivered),
    );
    if (m.mappingId !== null) {
      statements.push(d1.prepare(countMapping).bind(m.mappingId, delivered, m.timestamp));
    }
  }
  await d1.batch(statements);
}
