import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mappingTotals, urlMappings, users } from "../db/schema";
import { createVerifiedCustomer, db } from "../test/helpers";

/** What the triggers keep, and what counting the rows says. */
async function totalsAndCounts(userId: string) {
  const kept = await db().query.mappingTotals.findFirst({ where: eq(mappingTotals.userId, userId) });
  const counted = await env.DB.prepare(
    `select count(*) as mappings, count(distinct normalized_url) as urls, count(distinct host) as hosts,
       count(distinct group_url) as groups
     from url_mappings where user_id = ?`,
  )
    .bind(userId)
    .first<{ mappings: number; urls: number; hosts: number; groups: number }>();
  const { mappings = 0, urls = 0, hosts = 0, groups = 0 } = kept ?? {};
  return { kept: { mappings, urls, hosts, groups }, counted };
}

const insert = (userId: string, url: string, normalizedUrl: string) =>
  db()
    .insert(urlMappings)
    .values({ userId, url, normalizedUrl, htmlContent: "<p>x</p>" })
    .returning({ id: urlMappings.id })
    .then(([row]) => row!.id);

describe("mapping_totals", () => {
  it("counts mappings, distinct URLs and distinct websites through inserts and deletes", async () => {
    const { user } = await createVerifiedCustomer("c@example.com");
    const a1 = await insert(user.id, "https://shop.test/a", "shop.test/a");
    const a2 = await insert(user.id, "https://SHOP.test/a/", "shop.test/a");
    const b = await insert(user.id, "https://shop.test/b", "shop.test/b");
    const other = await insert(user.id, "https://blog.test/", "blog.test");
    let { kept, counted } = await totalsAndCounts(user.id);
    expect(kept).toEqual({ mappings: 4, urls: 3, hosts: 2, groups: 4 });
    expect(kept).toEqual(counted);

    // One of two mappings on a URL goes: the URL stays counted; the last one on a website goes: so does it.
    for (const id of [a1, other]) await db().delete(urlMappings).where(eq(urlMappings.id, id));
    ({ kept, counted } = await totalsAndCounts(user.id));
    expect(kept).toEqual({ mappings: 2, urls: 2, hosts: 1, groups: 2 });
    expect(kept).toEqual(counted);

    for (const id of [a2, b]) await db().delete(urlMappings).where(eq(urlMappings.id, id));
    expect((await totalsAndCounts(user.id)).kept).toEqual({ mappings: 0, urls: 0, hosts: 0, groups: 0 });
  });

  it("keeps counting right when a mapping moves to another URL, website or group, or stays on its own", async () => {
    const { user } = await createVerifiedCustomer("move@example.com");
    const a = await insert(user.id, "https://shop.test/a", "shop.test/a");
    await insert(user.id, "https://shop.test/a/", "shop.test/a");
    const move = (url: string, normalizedUrl: string) =>
      db().update(urlMappings).set({ url, normalizedUrl }).where(eq(urlMappings.id, a));
    const steps: [string, string][] = [
      ["https://blog.test/x", "blog.test/x"], // a new URL and website; the old URL keeps its other mapping
      ["https://blog.test/y", "blog.test/y"], // same website, new URL: the old URL had no other mapping
      ["https://Blog.test/y", "blog.test/y"], // same normalised URL, another group
      ["https://shop.test/a", "shop.test/a"], // back, joining the other mapping's URL: blog.test goes
      ["https://shop.test/a", "shop.test/a"], // no change at all
    ];
    for (const [url, normalizedUrl] of steps) {
      await move(url, normalizedUrl);
      const { kept, counted } = await totalsAndCounts(user.id);
      expect(kept, `after moving to ${url}`).toEqual(counted);
    }
    expect((await totalsAndCounts(user.id)).kept).toEqual({ mappings: 2, urls: 1, hosts: 1, groups: 2 });
  });

  it("counts a bulk insert row by row, and goes with its customer", async () => {
    const { user } = await createVerifiedCustomer("bulk@example.com");
    await env.DB.prepare(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < 300)
       insert into url_mappings (url, normalized_url, html_content, user_id)
       select 'https://s' || (i % 3) || '.test/p' || (i % 30), 's' || (i % 3) || '.test/p' || (i % 30), 'x', ?
       from n`,
    )
      .bind(user.id)
      .run();
    const { kept, counted } = await totalsAndCounts(user.id);
    expect(kept).toEqual(counted);
    expect(kept).toEqual({ mappings: 300, urls: 30, hosts: 3, groups: 30 });

    await db().delete(users).where(eq(users.id, user.id));
    expect(await db().query.mappingTotals.findFirst({ where: eq(mappingTotals.userId, user.id) })).toBeUndefined();
  });
});
