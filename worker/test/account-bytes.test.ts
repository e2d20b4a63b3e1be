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
import { UNMAPPED_URL_MAX_LENGTH, UNMAPPED_URLS_PER_DAY } from "../analytics/fold";
import type { AnalyticsMessage } from "../messages/analytics";
import { call, countViews, createVerifiedCustomer } from "./helpers";

/**
 * docs/scaling.md: a Free account's mappings (10 a billing period) with their search index and history, at the
 * highest the file reaches while they are changed (the trigram index keeps deleted entries until FTS5 merges).
 */
const FREE_MAPPINGS_BOUND = 56 * 1024 * 1024;
/** docs/scaling.md: one day's per-URL rows a stranger can add to a customer (kept 31 days at most). */
const URL_ROWS_PER_DAY_BOUND = 2.5 * 1024 * 1024;

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
});
