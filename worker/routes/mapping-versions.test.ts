import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Mapping } from "#contract/responses";
import type { MappingVersion } from "#contract/versions";
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
});
