/**
 * The most D1 bytes one account on the Free plan (the default product version) can make D1 hold, built through the
 * API and the fold and measured as the growth of the database file (D1's `meta.size_after`: workerd's D1 refuses
 * `dbstat` and `pragma page_count`). docs/scaling.md ("What one account can hold") states these bounds.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EXPERIMENT_MAX_BYTES } from "#contract/experiments";
import { HTML_CONTENT_MAX_BYTES, URL_MAX_LENGTH } from "#contract/input-caps";
import { HISTORY_BYTES_LIMIT } from "#contract/versions";
import { FINISHED_DELIVERIES_KEPT, WEBHOOKS_PER_CUSTOMER } from "#contract/webhooks";
import { UNMAPPED_URL_MAX_LENGTH, UNMAPPED_URLS_PER_DAY } from "../analytics/count";
import type { AnalyticsMessage } from "../messages/analytics";
import { LIMITED_PLAN_CONTENT_BYTES } from "../models/content-budget";
import { call, countViews, createCustomerOnPlan, createVerifiedCustomer } from "./helpers";
import { addWebhook, receiveWebhooks } from "./webhook-receiver";

/**
 * docs/scaling.md: a Free account's mappings (10 a billing period) with their search index and history, at the
 * highest the file reaches while they are changed (the trigram index keeps deleted entries until FTS5 merges).
 */
const FREE_MAPPINGS_BOUND = 56 * 1024 * 1024;
/** docs/scaling.md: one day's per-URL rows a stranger can add to a customer (kept 31 days at most). */
const URL_ROWS_PER_DAY_BOUND = 2.5 * 1024 * 1024;
/**
 * docs/scaling.md: a limited plan's mappings at its content budget (LIMITED_PLAN_CONTENT_BYTES), all of it HTML, the
 * worst case for the search index: the rows, each mapping's newest version and the trigram index.
 */
const CONTENT_BUDGET_BOUND = 220 * 1024 * 1024;
/** docs/scaling.md: an account's webhook log, 10 webhooks each at its bound of finished deliveries. */
const WEBHOOK_LOG_BOUND = 45 * 1024 * 1024;

const MB = 1024 * 1024;
const databaseBytes = async () => (await env.DB.prepare("select 1").run()).meta.size_after as number;
const letters = (n: number, seed: string) => {
  // Varied text: the worst case for the trigram index (a repetitive text costs a third of it).
  let x = [...seed].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  let out = "";
  for (let i = 0; i < n; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    out += String.fromCharCode(97 + ((x >>> 16) % 26));
  }
  return out;
};

describe("what one Free account can make D1 hold", () => {
  it("its mappings at their caps, changed until the history budget binds, stay under the documented bound", async () => {
    const { user, apiKey } = await createVerifiedCustomer("worst@example.com");
    const before = await databaseBytes();
    const variantBytes = Math.floor((EXPERIMENT_MAX_BYTES - 4_096) / 4);
    const body = (m: number, edit: number) => ({
      htmlContent: letters(HTML_CONTENT_MAX_BYTES, `h${m}-${edit}`),
      variants: [
        { key: "A", weight: 20 },
        ...["B", "C", "D", "E"].map((key) => ({
          key,
          weight: 20,
          htmlContent: letters(variantBytes, `${m}${key}${edit}`),
        })),
      ],
      goals: ["buy"],
    });
    const ids: number[] = [];
    for (let m = 0; m < 10; m++) {
      const url = `https://shop.test/${m}-${letters(URL_MAX_LENGTH - 30, `u${m}`)}`;
      const res = await call("/api/mappings", { method: "POST", apiKey, json: { url, ...body(m, 0) } });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: number }).id);
    }
    // The events of the period are spent: an 11th mapping is refused.
    const eleventh = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/x", htmlContent: "x" },
    });
    expect(eleventh.status).toBe(403);
    // Every mapping changed in full six times: the history budget binds from the first round, the search index's
    // segments are merged in the fifth or sixth.
    let grown = (await databaseBytes()) - before;
    for (let edit = 1; edit <= 6; edit++) {
      for (const [m, id] of ids.entries()) {
        const res = await call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json: body(m, edit) });
        expect(res.status).toBe(200);
      }
      grown = Math.max(grown, (await databaseBytes()) - before);
    }
    const history = await env.DB.prepare("select history_bytes as n from mapping_totals where user_id = ?")
      .bind(user.id)
      .first<number>("n");
    const versions = await env.DB.prepare("select count(*) as n from mapping_versions where user_id = ?")
      .bind(user.id)
      .first<number>("n");
    console.log(`[bytes] Free mappings: at most ${grown} B, history ${history} B in ${versions} versions`);
    // Only each mapping's newest version is left: they alone pass the budget.
    expect(versions).toBe(10);
    expect(history).toBeGreaterThan(HISTORY_BYTES_LIMIT);
    expect(grown).toBeLessThan(FREE_MAPPINGS_BOUND);
  }, 180_000);

  it(`a day of strangers' URLs at the longest that gets rows of its own stays under the documented bound`, async () => {
    const { user, apiKey } = await createVerifiedCustomer("target@example.com");
    const res = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://big.test/", htmlContent: "x" },
    });
    expect(res.status).toBe(201);
    const before = await databaseBytes();
    const view = (path: string): AnalyticsMessage => ({
      id: crypto.randomUUID(),
      userId: user.id,
      url: `https://big.test/${path}`,
      mappingId: null,
      delivered: false,
      timestamp: Date.now(),
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36",
      referer: null,
      visitor: null,
    });
    const pathLength = UNMAPPED_URL_MAX_LENGTH - "big.test/".length;
    const urls = Array.from({ length: UNMAPPED_URLS_PER_DAY + 200 }, (_, i) =>
      view(`${i}-${letters(pathLength, `p${i}`)}`.slice(0, pathLength)),
    );
    await countViews(urls);
    const grown = (await databaseBytes()) - before;
    const rows = await env.DB.prepare("select count(*) as n from url_stats where user_id = ?")
      .bind(user.id)
      .first<number>("n");
    console.log(
      `[bytes] one day of ${UNMAPPED_URLS_PER_DAY} URLs: ${grown} B, ${Math.round(grown / UNMAPPED_URLS_PER_DAY)} B a URL`,
    );
    // The day's URLs, the mapped page's and the other pages' row.
    expect(rows).toBe(UNMAPPED_URLS_PER_DAY + 1);
    expect(grown).toBeLessThan(URL_ROWS_PER_DAY_BOUND);
    expect(grown).toBeGreaterThan(MB / 2);
  }, 180_000);

  it("its webhook log, every webhook at its bound with the longest URL in each event, stays under the documented bound", async () => {
    receiveWebhooks();
    const { apiKey } = await createVerifiedCustomer("hooks@example.com");
    const hooks = [];
    for (let i = 0; i < WEBHOOKS_PER_CUSTOMER; i++)
      hooks.push(await addWebhook(apiKey, `https://hooks.shop.test/${i}`));
    const before = await databaseBytes();
    // Deliveries as the triggers write them (db/raw.ts: the event's facts, no payload), finished; 200 a webhook more
    // than its log keeps.
    const url = `https://shop.test/${letters(URL_MAX_LENGTH - 18, "hook")}`;
    for (const hook of hooks) {
      await env.DB.prepare(
        `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?2)
         insert into webhook_deliveries (webhook_id, event_id, event, facts, status, attempts, response_status,
           created_at, last_attempt_at)
         select ?1, lower(hex(randomblob(16))), 'mapping.updated',
           json_object('id', i, 'url', ?3, 'publishedAt', ?4, 'publishAt', null, 'unpublishAt', null,
             'changedBy', 'customer'), 'delivered', 1, 204, ?4, ?4 from n`,
      )
        .bind(hook.id, FINISHED_DELIVERIES_KEPT + 200, url, Date.now())
        .run();
    }
    const grown = (await databaseBytes()) - before;
    const rows = await env.DB.prepare("select count(*) as n from webhook_deliveries").first<number>("n");
    console.log(`[bytes] webhook log at its bound: ${grown} B in ${rows} deliveries`);
    expect(rows).toBeLessThanOrEqual(WEBHOOKS_PER_CUSTOMER * FINISHED_DELIVERIES_KEPT);
    expect(grown).toBeLessThan(WEBHOOK_LOG_BOUND);
  }, 180_000);

  it("a limited plan's mappings filled to its content budget with HTML stay under the documented bound", async () => {
    // A plan that limits new mappings, with room for as many as the budget takes (Free reaches it over many periods).
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: 1_000 });
    const before = await databaseBytes();
    const text = letters(HTML_CONTENT_MAX_BYTES + 300 * 997, "budget");
    let added = 0;
    for (;;) {
      // Its changes spread over minutes, as the change throttle (120 a minute) requires.
      if (added % 100 === 99) await env.DB.prepare("delete from rate_limit_events").run();
      const htmlContent = text.slice(added * 997, added * 997 + HTML_CONTENT_MAX_BYTES);
      const res = await call("/api/mappings", {
        method: "POST",
        apiKey,
        json: { url: `https://shop.test/${added}-${letters(200, `b${added}`)}`, htmlContent },
      });
      if (res.status === 403) {
        expect(((await res.json()) as { error: string }).error).toMatch(/^Your plan stores at most 50 MB of content/);
        break;
      }
      expect(res.status).toBe(201);
      added++;
    }
    const grown = (await databaseBytes()) - before;
    const content = await env.DB.prepare("select content_bytes as n from mapping_totals where user_id = ?")
      .bind(user.id)
      .first<number>("n");
    console.log(`[bytes] content budget: ${added} mappings, ${content} B of content, ${grown} B in all`);
    expect(content).toBeLessThanOrEqual(LIMITED_PLAN_CONTENT_BYTES);
    expect(content).toBeGreaterThan(LIMITED_PLAN_CONTENT_BYTES - HTML_CONTENT_MAX_BYTES - 4_096);
    expect(grown).toBeLessThan(CONTENT_BUDGET_BOUND);
  }, 300_000);
});
