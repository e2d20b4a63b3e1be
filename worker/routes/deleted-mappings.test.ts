import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { DeletedMapping, Mapping } from "#contract/responses";
import type { MappingVersion } from "#contract/versions";
import { deletedMappings, urlMappings, users } from "../db/schema";
import { purgeDeletedMappings } from "../models/deleted-mappings";
import { expectStoreMatchesD1, storedEntry } from "../test/delivery-store";
import { call, createAdmin, createCustomerOnPlan, createVerifiedCustomer, db } from "../test/helpers";

const DAY = 86_400_000;

async function add(apiKey: string, json: object) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json });
  expect(res.status).toBe(201);
  return (await res.json()) as Mapping;
}

const remove = (apiKey: string, id: number) => call(`/api/mappings/${id}`, { method: "DELETE", apiKey });
const restore = (apiKey: string, id: number) => call(`/api/mappings/deleted/${id}/restore`, { method: "POST", apiKey });

async function deletedList(apiKey: string, query = "") {
  const res = await call(`/api/mappings/deleted${query}`, { apiKey });
  expect(res.status).toBe(200);
  return { rows: (await res.json()) as DeletedMapping[], total: Number(res.headers.get("X-Total-Count")) };
}

describe("restoring a deleted mapping", () => {
  it("keeps a deleted mapping 30 days and restores it as it was, with its id, delivered at once", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, {
      url: "https://shop.test/offer",
      htmlContent: `<p>${"x".repeat(400)}</p>`,
      placement: { position: "inside", selector: "#slot" },
      seo: { title: "Offer" },
    });
    expect((await remove(apiKey, m.id)).status).toBe(200);
    expect(await storedEntry(user.id, "shop.test/offer")).toBeNull();

    const { rows, total } = await deletedList(apiKey);
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ id: m.id, url: m.url, htmlContentLength: 407, match: "exact" });
    expect(rows[0]!.htmlContent).toHaveLength(300);
    expect(Date.parse(rows[0]!.restorableUntil) - Date.parse(rows[0]!.deletedAt)).toBe(30 * DAY);

    const res = await restore(apiKey, m.id);
    expect(res.status).toBe(200);
    const restored = (await res.json()) as Mapping;
    expect(restored).toEqual({ ...m, publishedAt: m.publishedAt });
    expect(res.headers.get("X-Delivery-Everywhere-By")).not.toBeNull();
    expect((await storedEntry(user.id, "shop.test/offer"))?.mappingId).toBe(m.id);
    expect((await deletedList(apiKey)).total).toBe(0);
    await expectStoreMatchesD1(user.id, "after a restore");
    const versions = (await (await call(`/api/mappings/${m.id}/versions`, { apiKey })).json()) as MappingVersion[];
    expect(versions.map((v) => [v.version, v.changedBy])).toEqual([[1, "customer"]]);
    // Restored once: a second restore finds nothing.
    expect((await restore(apiKey, m.id)).status).toBe(404);
  });

  it("restores what an admin deleted too, and never another customer's", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const admin = await createAdmin();
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>a</p>" });
    expect((await call(`/api/admin/mappings/${m.id}`, { method: "DELETE", apiKey: admin.apiKey })).status).toBe(200);
    expect((await deletedList(other.apiKey)).total).toBe(0);
    const refused = await restore(other.apiKey, m.id);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: "No deleted mapping with this id from the last 30 days" });
    expect((await restore(apiKey, m.id)).status).toBe(200);
  });

  it("forgets a deletion after 30 days: no longer listed or restorable, and purged by the daily cron", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const old = await add(apiKey, { url: "https://shop.test/old", htmlContent: "<p>old</p>" });
    const recent = await add(apiKey, { url: "https://shop.test/recent", htmlContent: "<p>recent</p>" });
    await remove(apiKey, old.id);
    await remove(apiKey, recent.id);
    await db()
      .update(deletedMappings)
      .set({ deletedAt: new Date(Date.now() - 30 * DAY - 1000) })
      .where(eq(deletedMappings.id, old.id));
    expect((await deletedList(apiKey)).rows.map((r) => r.id)).toEqual([recent.id]);
    expect((await restore(apiKey, old.id)).status).toBe(404);
    // Created in the current billing period, it still counts among the period's events: kept until the period ends.
    expect(await purgeDeletedMappings(db(), new Date())).toBe(0);
    await db()
      .update(deletedMappings)
      .set({ createdAt: new Date(Date.now() - 31 * DAY) })
      .where(eq(deletedMappings.id, old.id));
    expect(await purgeDeletedMappings(db(), new Date())).toBe(1);
    expect((await db().select().from(deletedMappings)).map((r) => r.id)).toEqual([recent.id]);
  });

  it("does not carry out a schedule late: a passed publish time leaves a draft, a passed end leaves it offline", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const draft = await add(apiKey, {
      url: "https://shop.test/later",
      htmlContent: "<p>later</p>",
      publishAt: new Date(Date.now() + DAY).toISOString(),
    });
    const ending = await add(apiKey, {
      url: "https://shop.test/ending",
      htmlContent: "<p>ending</p>",
      unpublishAt: new Date(Date.now() + DAY).toISOString(),
    });
    await remove(apiKey, draft.id);
    await remove(apiKey, ending.id);
    await db()
      .update(deletedMappings)
      .set({ publishAt: new Date(Date.now() - 1000) })
      .where(eq(deletedMappings.id, draft.id));
    await db()
      .update(deletedMappings)
      .set({ unpublishAt: new Date(Date.now() - 1000) })
      .where(eq(deletedMappings.id, ending.id));
    expect(await (await restore(apiKey, draft.id)).json()).toMatchObject({ publishedAt: null, publishAt: null });
    expect(await (await restore(apiKey, ending.id)).json()).toMatchObject({ publishedAt: null, unpublishAt: null });
  });

  it("holds a restore to the plan's websites limit, and changes nothing when refused", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ websitesLimit: 1 });
    const gone = await add(apiKey, { url: "https://one.test/", htmlContent: "<p>1</p>" });
    await remove(apiKey, gone.id);
    await add(apiKey, { url: "https://two.test/", htmlContent: "<p>2</p>" });
    const res = await restore(apiKey, gone.id);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Your plan allows 1 website. Upgrade your plan to add one.test." });
    expect((await db().select().from(urlMappings).where(eq(urlMappings.userId, user.id))).map((m) => m.url)).toEqual([
      "https://two.test/",
    ]);
    expect((await deletedList(apiKey)).total).toBe(1);
  });

  it("holds a restore to the events limit: deleting refunds no event, and content that comes back is paid for", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: 2 });
    const a = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>a</p>" });
    await add(apiKey, { url: "https://shop.test/b", htmlContent: "<p>b</p>" });
    await remove(apiKey, a.id);
    const more = await call("/api/mappings", {
      method: "POST",
      apiKey,
      json: { url: "https://shop.test/c", htmlContent: "<p>c</p>" },
    });
    expect(more.status).toBe(403);
    const dashboard = await call("/api/user/dashboard", { apiKey });
    expect(((await dashboard.json()) as { usage: { dynamicEvents: number } }).usage.dynamicEvents).toBe(2);
    const res = await restore(apiKey, a.id);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: "Your plan allows 2 content updates per billing period. Upgrade your plan or wait for the next period.",
    });
    expect((await db().select().from(urlMappings).where(eq(urlMappings.userId, user.id))).map((m) => m.url)).toEqual([
      "https://shop.test/b",
    ]);
  });

  it("goes with its customer: deleting the user deletes the copies", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>a</p>" });
    await remove(apiKey, m.id);
    await db().delete(users).where(eq(users.id, user.id));
    expect(await db().select().from(deletedMappings)).toEqual([]);
  });
});
