import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ImportReport } from "#contract/bulk";
import type { Mapping } from "#contract/responses";
import { mappingTotals, urlMappings } from "../db/schema";
import { call, createCustomerOnPlan, createVerifiedCustomer, db } from "../test/helpers";
import {
  contentBudgetExceeded,
  LIMITED_PLAN_CONTENT_BYTES,
  sizeText,
  UNLIMITED_PLAN_CONTENT_BYTES,
} from "./content-budget";

/** What the triggers keep, and what measuring the customer's rows says (db/raw.ts VERSION_BYTES). */
async function keptAndMeasured(userId: string) {
  const kept = await db().query.mappingTotals.findFirst({ where: eq(mappingTotals.userId, userId) });
  const measured = await env.DB.prepare(
    `select coalesce(sum(64 + length(cast(url as blob)) + length(cast(html_content as blob))
       + coalesce(length(cast(placement as blob)), 0) + coalesce(length(cast(seo as blob)), 0)
       + coalesce(length(cast(experiment as blob)), 0)), 0) as bytes
     from url_mappings where user_id = ?`,
  )
    .bind(userId)
    .first<{ bytes: number }>();
  return { kept: kept?.contentBytes ?? 0, measured: measured!.bytes };
}

/** The account as if its mappings stored `bytes` (reaching 50 MB through the API takes many billing periods). */
const storing = (userId: string, bytes: number) =>
  db().update(mappingTotals).set({ contentBytes: bytes }).where(eq(mappingTotals.userId, userId));

const add = (apiKey: string, json: object) => call("/api/mappings", { method: "POST", apiKey, json });
const change = (apiKey: string, id: number, json: object) =>
  call(`/api/mappings/${id}`, { method: "PATCH", apiKey, json });

async function mappingsOf(userId: string) {
  return db().select().from(urlMappings).where(eq(urlMappings.userId, userId)).orderBy(urlMappings.id);
}

describe("the content budget", () => {
  it("keeps each account's content bytes through creates, edits, an import, a delete and a restore", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const m = (await (await add(apiKey, { url: "https://shop.test/ü", htmlContent: "<p>é</p>" })).json()) as Mapping;
    await change(apiKey, m.id, { htmlContent: "<p>ünïcödé</p>", seo: { title: "Offer" } });
    const variants = [
      { key: "A", weight: 50 },
      { key: "B", weight: 50, htmlContent: "<p>b</p>" },
    ];
    expect((await change(apiKey, m.id, { variants, goals: ["signup"] })).status).toBe(200);
    const imported = await call("/api/mappings/import", {
      method: "POST",
      apiKey,
      body: JSON.stringify([{ url: "https://shop.test/x", htmlContent: "<p>x</p>" }]),
      headers: { "Content-Type": "application/json" },
    });
    expect(imported.status).toBe(200);
    let { kept, measured } = await keptAndMeasured(user.id);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBe(measured);
    expect((await call(`/api/mappings/${m.id}`, { method: "DELETE", apiKey })).status).toBe(200);
    ({ kept, measured } = await keptAndMeasured(user.id));
    expect(kept).toBe(measured);
    expect((await call(`/api/mappings/deleted/${m.id}/restore`, { method: "POST", apiKey })).status).toBe(200);
    ({ kept, measured } = await keptAndMeasured(user.id));
    expect(kept).toBe(measured);
  });

  it("refuses a create, an edit that grows, a restore and an import row past a limited plan's 50 MB, and changes nothing", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: 1_000 });
    const small = (await (
      await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>a</p>" })
    ).json()) as Mapping;
    const gone = (await (await add(apiKey, { url: "https://shop.test/b", htmlContent: "<p>b</p>" })).json()) as Mapping;
    await call(`/api/mappings/${gone.id}`, { method: "DELETE", apiKey });
    const before = await mappingsOf(user.id);
    // 1,000 bytes of room left.
    await storing(user.id, LIMITED_PLAN_CONTENT_BYTES - 1_000);

    const html = "x".repeat(300_000 - 1_000);
    const refused = await add(apiKey, { url: "https://shop.test/big", htmlContent: html.slice(0, 200_000) });
    expect(refused.status).toBe(403);
    const over = 64 + "https://shop.test/big".length + 200_000 - 1_000;
    expect(await refused.json()).toEqual({ error: contentBudgetExceeded(LIMITED_PLAN_CONTENT_BYTES, over) });
    expect(contentBudgetExceeded(LIMITED_PLAN_CONTENT_BYTES, over)).toBe(
      "Your plan stores at most 50 MB of content; this change needs 0.2 MB more. Delete mappings or upgrade your plan.",
    );

    const grows = await change(apiKey, small.id, { htmlContent: html.slice(0, 5_000) });
    expect(grows.status).toBe(403);
    expect(((await grows.json()) as { error: string }).error).toMatch(/^Your plan stores at most 50 MB of content/);

    await storing(user.id, LIMITED_PLAN_CONTENT_BYTES);
    const restore = await call(`/api/mappings/deleted/${gone.id}/restore`, { method: "POST", apiKey });
    expect(restore.status).toBe(403);
    const imported = await call("/api/mappings/import", {
      method: "POST",
      apiKey,
      body: JSON.stringify([{ url: "https://shop.test/new", htmlContent: "<p>new</p>" }]),
      headers: { "Content-Type": "application/json" },
    });
    expect(imported.status).toBe(422);
    const report = (await imported.json()) as ImportReport;
    expect(report.rows[0]!.errors![0]).toMatch(/^Your plan stores at most 50 MB of content; this change needs/);
    expect(await mappingsOf(user.id)).toEqual(before);

    // At its budget (or past it) an account may still shrink what it stores; that frees room.
    const shrinks = await change(apiKey, small.id, { htmlContent: "<p></p>" });
    expect(shrinks.status).toBe(200);
    expect((await keptAndMeasured(user.id)).kept).toBe(LIMITED_PLAN_CONTENT_BYTES - 1);
  });

  it("gives a plan without an events limit 1 GB, and a customer far below the budget sees nothing new", async () => {
    const { user, apiKey } = await createCustomerOnPlan({ eventsLimit: null });
    await add(apiKey, { url: "https://shop.test/a", htmlContent: "<p>a</p>" });
    await storing(user.id, LIMITED_PLAN_CONTENT_BYTES);
    expect((await add(apiKey, { url: "https://shop.test/b", htmlContent: "<p>b</p>" })).status).toBe(201);
    await storing(user.id, UNLIMITED_PLAN_CONTENT_BYTES);
    const refused = await add(apiKey, { url: "https://shop.test/c", htmlContent: "<p>c</p>" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/^Your plan stores at most 1 GB of content/);
  });

  it("says sizes to one decimal, rounded up", () => {
    expect(sizeText(LIMITED_PLAN_CONTENT_BYTES)).toBe("50 MB");
    expect(sizeText(UNLIMITED_PLAN_CONTENT_BYTES)).toBe("1 GB");
    expect(sizeText(5 * UNLIMITED_PLAN_CONTENT_BYTES)).toBe("5 GB");
    expect(sizeText(1)).toBe("0.1 MB");
    expect(sizeText(1.25 * 1024 * 1024)).toBe("1.3 MB");
  });
});
