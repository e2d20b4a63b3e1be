import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ProductVersion } from "../../contract/responses";
import { productVersions, subscriptions, users } from "../../db/schema";
import { call, createAdmin, createVerifiedCustomer, db, visit } from "../../test/helpers";

const plan = (over: Record<string, unknown> = {}) => ({
  name: "Growth",
  description: "For growing sites",
  eventsLimit: 100,
  websitesLimit: 5,
  dynamicContentLimit: null,
  price: 29.99,
  paypalPlanId: "P-GROWTH",
  isDefault: false,
  ...over,
});

async function create(apiKey: string, body: Record<string, unknown>) {
  const res = await call("/api/admin/product-versions", { method: "POST", apiKey, json: body });
  const json = await res.json();
  return { status: res.status, json, version: json as ProductVersion };
}

const defaults = async () =>
  (await db().select().from(productVersions).where(eq(productVersions.isDefault, true))).map((v) => v.name);

describe("/api/admin/product-versions", () => {
  it("creates a version with a 2-decimal price stored exactly, and lists it", async () => {
    const { apiKey } = await createAdmin();
    const { status, version } = await create(apiKey, plan());
    expect(status).toBe(201);
    expect(version).toMatchObject({
      name: "Growth",
      price: 29.99,
      eventsLimit: 100,
      dynamicContentLimit: null,
      isDefault: false,
    });
    expect((await db().select().from(productVersions).where(eq(productVersions.id, version.id)))[0]!.priceCents).toBe(
      2999,
    );
    const list = (await (await call("/api/admin/product-versions", { apiKey })).json()) as ProductVersion[];
    expect(list.map((v) => v.name)).toEqual(["Free", "Growth"]);
  });

  it("requires a name and whole, non-negative limits, and creates nothing otherwise", async () => {
    const { apiKey } = await createAdmin();
    expect((await create(apiKey, plan({ name: " " }))).json).toEqual({ error: "Name is required" });
    expect((await create(apiKey, plan({ eventsLimit: 1.5 }))).status).toBe(400);
    expect((await create(apiKey, plan({ websitesLimit: -1 }))).status).toBe(400);
    expect(await db().select().from(productVersions)).toHaveLength(1);
  });

  it("keeps one default: making another the default clears the old one", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan({ isDefault: true }));
    expect(await defaults()).toEqual(["Growth"]);
    const pro = await create(apiKey, plan({ name: "Pro" }));
    await call(`/api/admin/product-versions/${pro.version.id}`, {
      method: "PATCH",
      apiKey,
      json: plan({ name: "Pro", isDefault: true }),
    });
    expect(await defaults()).toEqual(["Pro"]);
    expect((await db().select().from(productVersions).where(eq(productVersions.id, version.id)))[0]!.isDefault).toBe(
      false,
    );
  });

  it("moves the users of a deleted version to the default version", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan());
    const shop = await createVerifiedCustomer("shop@example.com");
    await db().update(users).set({ productVersionId: version.id }).where(eq(users.id, shop.user.id));
    const res = await call(`/api/admin/product-versions/${version.id}`, { method: "DELETE", apiKey });
    expect(await res.json()).toEqual({ message: "Product version deleted successfully" });
    const free = (await db().select().from(productVersions).where(eq(productVersions.isDefault, true)))[0]!;
    expect((await db().select().from(users).where(eq(users.id, shop.user.id)))[0]!.productVersionId).toBe(free.id);
    expect((await call(`/api/admin/product-versions/${version.id}`, { method: "DELETE", apiKey })).status).toBe(404);
  });

  it("deletes a version a PayPal subscription pays for: the subscription then pays for none", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan());
    const shop = await createVerifiedCustomer("shop@example.com");
    await db()
      .update(users)
      .set({ productVersionId: version.id, planSource: "paypal" })
      .where(eq(users.id, shop.user.id));
    await db()
      .insert(subscriptions)
      .values({ userId: shop.user.id, subscriptionId: "I-1", productVersionId: version.id, status: "active" });
    const res = await call(`/api/admin/product-versions/${version.id}`, { method: "DELETE", apiKey });
    expect(res.status).toBe(200);
    expect((await db().select().from(subscriptions))[0]!.productVersionId).toBeNull();
    expect((await db().select().from(users).where(eq(users.id, shop.user.id)))[0]!.planSource).toBe("default");
  });

  it("applies an edited limit to its users' delivery on the next request", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan({ dynamicContentLimit: 1 }));
    const shop = await createVerifiedCustomer("shop@example.com");
    await call(`/api/admin/users/${shop.user.id}/product-version`, {
      method: "POST",
      apiKey,
      json: { versionId: version.id },
    });
    await call("/api/mappings", {
      method: "POST",
      apiKey: shop.apiKey,
      json: { url: "https://shop.test/a", htmlContent: "A" },
    });

    const visitPage = () => visit(shop.user.id, "https://shop.test/a");
    expect(await visitPage()).toBe(200);
    expect(await visitPage()).toBe(204);
    await call(`/api/admin/product-versions/${version.id}`, {
      method: "PATCH",
      apiKey,
      json: plan({ dynamicContentLimit: 5 }),
    });
    expect(await visitPage()).toBe(200);
  });
});
