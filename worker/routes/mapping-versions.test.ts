import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import { HISTORY_BYTES_LIMIT, type MappingVersion } from "#contract/versions";
import { runEveryMinute } from "../scheduled";
import { expectStoreMatchesD1, storedEntry } from "../test/delivery-store";
import { call, createVerifiedCustomer } from "../test/helpers";

async function add(apiKey: string, json: object) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json });
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

const edit = (apiKey: string, id: number, json: object) =>
  call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json });

async function versions(apiKey: string, id: number, query = "") {
  const res = await call(`/api/mappings/${id}/versions${query}`, { apiKey });
  expect(res.status).toBe(200);
  return { rows: (await res.json()) as MappingVersion[], total: Number(res.headers.get("X-Total-Count")) };
}

describe("a mapping's history", () => {
  it("records every change as a version (who, when, what), newest first, and skips saves that change nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>one</p>" });
    await edit(apiKey, m.id, { htmlContent: "<p>two</p>", placement: { position: "inside", selector: "#slot" } });
    await edit(apiKey, m.id, { htmlContent: "<p>two</p>" });
    await call(`/api/mappings/${m.id}/status`, { method: "PATCH", apiKey, json: { status: "unpublished" } });
    const { rows, total } = await versions(apiKey, m.id);
    expect(total).toBe(3);
    expect(rows.map((v) => [v.version, v.changedBy, v.htmlContent, v.publishedAt !== null])).toEqual([
      [3, "customer", "<p>two</p>", false],
      [2, "customer", "<p>two</p>", true],
      [1, "customer", "<p>one</p>", true],
    ]);
    expect(rows[1]).toMatchObject({ url: "https://shop.test/a", placement: { position: "inside", selector: "#slot" } });
    expect(rows[2]!.placement).toEqual({ position: "body-start" });
    expect(Date.parse(rows[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(rows[2]!.createdAt));
    expect((await versions(apiKey, m.id, "?limit=1&offset=1")).rows.map((v) => v.version)).toEqual([2]);
  });

  it("restores any version in one step: its content, URL, placement and state, delivered at once", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>good</p>", seo: { title: "Good" } });
    await edit(apiKey, m.id, { url: "https://shop.test/b", htmlContent: "<p>broken</p>", seo: {} });
    expect(await storedEntry(user.id, "shop.test/a")).toBeNull();

    const res = await call(`/api/mappings/${m.id}/versions/1/restore`, { method: "POST", apiKey });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: m.id,
      url: "https://shop.test/a",
      htmlContent: "<p>good</p>",
      seo: { title: "Good" },
    });
    expect(await storedEntry(user.id, "shop.test/a")).toEqual({
      mappingId: m.id,
      html: "<p>good</p>",
      seo: { title: "Good" },
    });
    expect(await storedEntry(user.id, "shop.test/b")).toBeNull();
    await expectStoreMatchesD1(user.id, "after a restore");
    // The restore is itself a version, so it can be undone the same way.
    const { rows } = await versions(apiKey, m.id);
    expect(rows.map((v) => [v.version, v.htmlContent])).toEqual([
      [3, "<p>good</p>"],
      [2, "<p>broken</p>"],
      [1, "<p>good</p>"],
    ]);
  });

  it("records the minute cron as the author of a scheduled change", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const at = Date.now() + 60_000;
    const m = await add(apiKey, {
      url: "https://shop.test/a",
      htmlContent: "x",
      publishAt: new Date(at).toISOString(),
    });
    await runEveryMinute(env, new Date(at));
    const { rows } = await versions(apiKey, m.id);
    expect(rows.map((v) => v.changedBy)).toEqual(["schedule", "customer"]);
  });

  it("keeps the newest 50 versions", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "v1" });
    for (let i = 2; i <= 53; i++) await edit(apiKey, m.id, { htmlContent: `v${i}` });
    const { rows, total } = await versions(apiKey, m.id);
    expect(total).toBe(50);
    expect([rows[0]!.version, rows.at(-1)!.version]).toEqual([53, 4]);
  });

  it("answers 404 for another customer's mapping or an unknown version, and changes nothing", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const m = await add(owner.apiKey, { url: "https://shop.test/a", htmlContent: "mine" });
    await edit(owner.apiKey, m.id, { htmlContent: "mine, edited" });
    const theirs = await call(`/api/mappings/${m.id}/versions`, { apiKey: other.apiKey });
    expect(theirs.status).toBe(404);
    const restore = await call(`/api/mappings/${m.id}/versions/1/restore`, { method: "POST", apiKey: other.apiKey });
    expect(restore.status).toBe(404);
    const unknown = await call(`/api/mappings/${m.id}/versions/9/restore`, { method: "POST", apiKey: owner.apiKey });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Version not found" });
    expect(await storedEntry(owner.user.id, "shop.test/a")).toMatchObject({ html: "mine, edited" });
  });

  it("keeps at most 10 MB of history per account: the oldest versions go, each mapping's newest always stays", async () => {
    const owner = await createVerifiedCustomer("big@example.com");
    const bystander = await createVerifiedCustomer("small@example.com");
    const theirs = await add(bystander.apiKey, { url: "https://other.test/a", htmlContent: "old" });
    await edit(bystander.apiKey, theirs.id, { htmlContent: "new" });
    // About 1.3 MB a version: 256 KB of HTML and an experiment of four more variants of about 256 KB.
    const big = (tag: string) => ({
      htmlContent: tag.padEnd(262_000, "a"),
      variants: [
        { key: "A", weight: 20 },
        ...["B", "C", "D", "E"].map((key) => ({ key, weight: 20, htmlContent: `${tag}${key}`.padEnd(261_000, "b") })),
      ],
      goals: ["buy"],
    });
    const first = await add(owner.apiKey, { url: "https://shop.test/0", ...big("m0 v1") });
    for (let v = 2; v <= 9; v++) expect((await edit(owner.apiKey, first.id, big(`m0 v${v}`))).status).toBe(200);
    const history = await versions(owner.apiKey, first.id);
    const [newest, oldest] = [history.rows[0]!.version, history.rows.at(-1)!.version];
    expect(newest).toBe(9);
    expect(oldest).toBeGreaterThan(1);
    expect(history.total).toBe(newest - oldest + 1);
    expect(await historyBytes(owner.user.id)).toBeLessThanOrEqual(HISTORY_BYTES_LIMIT);

    // Eight more mappings: their newest versions alone pass the budget, so every older version goes, none of them.
    const others: number[] = [];
    for (let m = 1; m <= 8; m++)
      others.push((await add(owner.apiKey, { url: `https://shop.test/${m}`, ...big(`m${m}`) })).id);
    expect((await versions(owner.apiKey, first.id)).rows.map((v) => v.version)).toEqual([9]);
    for (const id of others) expect((await versions(owner.apiKey, id)).total).toBe(1);
    expect(await historyBytes(owner.user.id)).toBeGreaterThan(HISTORY_BYTES_LIMIT);

    // A deleted mapping's copy is history too; the total is always what the versions and copies hold.
    expect((await call(`/api/mappings/${others[0]}`, { method: "DELETE", apiKey: owner.apiKey })).status).toBe(200);
    expect(await historyBytes(owner.user.id)).toBe(await storedHistoryBytes(owner.user.id));
    expect((await versions(bystander.apiKey, theirs.id)).total).toBe(2);
  }, 60_000);
});

/** The customer's history bytes as the triggers keep them. */
async function historyBytes(userId: string) {
  const row = await env.DB.prepare("select history_bytes as n from mapping_totals where user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  return row!.n;
}

/** The customer's history bytes summed from what is stored (each row's text in UTF-8, plus 64). */
async function storedHistoryBytes(userId: string) {
  const size = (t: string) =>
    `64 + length(cast(${t}.url as blob)) + length(cast(${t}.html_content as blob)) + coalesce(length(cast(${t}.placement as blob)), 0)
    + coalesce(length(cast(${t}.seo as blob)), 0) + coalesce(length(cast(${t}.experiment as blob)), 0)`;
  const row = await env.DB.prepare(
    `select (select coalesce(sum(${size("v")}), 0) from mapping_versions v join url_mappings m on m.id = v.mapping_id
       where m.user_id = ?1)
     + (select coalesce(sum(${size("d")}), 0) from deleted_mappings d where d.user_id = ?1) as n`,
  )
    .bind(userId)
    .first<{ n: number }>();
  return row!.n;
}
