import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { ProductVersion } from "#contract/responses";
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

  it("requires a name and whole, non-negative limits, names the field, and creates nothing otherwise", async () => {
    const { apiKey } = await createAdmin();
    expect((await create(apiKey, plan({ name: " " }))).json).toEqual({ error: "Name is required" });
    expect((await create(apiKey, plan({ eventsLimit: 1.5 }))).json).toEqual({
      error: "eventsLimit must be a whole number",
    });
    expect((await create(apiKey, plan({ websitesLimit: -1 }))).json).toEqual({
      error: "websitesLimit must be at least 0",
    });
    const { status, json } = await create(apiKey, plan({ dynamicContentLimit: undefined }));
    expect({ status, json }).toEqual({ status: 400, json: { error: "dynamicContentLimit must be a number or null" } });
    expect(await db().select().from(productVersions)).toHaveLength(1);
  });

  it("keeps one default: making another the default clears the old one", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan({ isDefault: true }));
    expect(await defaults()).toEqual(["Growth"]);
    const pro = await create(apiKey, plan({ name: "Pro", paypalPlanId: "P-PRO" }));
    await call(`/api/admin/product-versions/${pro.version.id}`, {
      method: "PATCH",
      apiKey,
      json: plan({ name: "Pro", paypalPlanId: "P-PRO", isDefault: true }),
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

  it("refuses to delete or reprice a version while customers subscribe to it, and says what to do instead", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan());
    const patch = (json: object) =>
      call(`/api/admin/product-versions/${version.id}`, { method: "PATCH", apiKey, json });
    for (const [i, email] of ["a@example.com", "b@example.com"].entries()) {
      const shop = await createVerifiedCustomer(email);
      await db()
        .update(users)
        .set({ productVersionId: version.id, planSource: "paypal" })
        .where(eq(users.id, shop.user.id));
      await db()
        .insert(subscriptions)
        .values({ userId: shop.user.id, subscriptionId: `I-${i}`, productVersionId: version.id, status: "active" });
    }
    const refusedDelete = await call(`/api/admin/product-versions/${version.id}`, { method: "DELETE", apiKey });
    expect(refusedDelete.status).toBe(409);
    expect(await refusedDelete.json()).toEqual({
      error:
        "2 customers hold live subscriptions to Growth: it cannot be deleted. Create a new version for new customers " +
        "instead; existing subscribers keep theirs.",
    });
    for (const change of [{ price: 39.99 }, { paypalPlanId: "P-OTHER" }, plan({ price: 29 })]) {
      const res = await patch(change);
      expect(res.status, JSON.stringify(change)).toBe(409);
      expect(((await res.json()) as { error: string }).error).toBe(
        "2 customers hold live subscriptions to Growth: its price and PayPal plan cannot change. Create a new " +
          "version with the new price and plan instead; existing subscribers keep theirs.",
      );
    }
    // Everything else may change, the same price and plan sent again included.
    const renamed = await patch(plan({ description: "Now with more", eventsLimit: 200 }));
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ price: 29.99, paypalPlanId: "P-GROWTH", eventsLimit: 200 });

    // Once the subscriptions have ended, the version can go.
    await db().update(subscriptions).set({ status: "cancelled" });
    expect((await call(`/api/admin/product-versions/${version.id}`, { method: "DELETE", apiKey })).status).toBe(200);
  });

  it("keeps every field a PATCH leaves out, as earlier clients omit price and plan id", async () => {
    const { apiKey } = await createAdmin();
    const { version } = await create(apiKey, plan({ isDefault: true }));
    const res = await call(`/api/admin/product-versions/${version.id}`, {
      method: "PATCH",
      apiKey,
      json: { name: "Growth 2", description: "Renamed", eventsLimit: 100, websitesLimit: 5, dynamicContentLimit: null },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ...version, name: "Growth 2", description: "Renamed" });
    expect(await defaults()).toEqual(["Growth 2"]);
    const only = await call(`/api/admin/product-versions/${version.id}`, {
      method: "PATCH",
      apiKey,
      json: { eventsLimit: 7 },
    });
    expect(await only.json()).toMatchObject({
      name: "Growth 2",
      eventsLimit: 7,
      price: 29.99,
      paypalPlanId: "P-GROWTH",
    });
    const empty = await call(`/api/admin/product-versions/${version.id}`, {
      method: "PATCH",
      apiKey,
      json: { name: "" },
    });
    expect(await empty.json()).toEqual({ error: "Name is required" });
  });

  it("refuses a PayPal plan id another version has, on create and on edit, naming the id and that version", async () => {
    const { apiKey } = await createAdmin();
    const growth = await create(apiKey, plan());
    const taken = {
      error: "PayPal plan id P-GROWTH already belongs to Growth: each PayPal plan id belongs to one product version.",
    };
    const second = await create(apiKey, plan({ name: "Growth 2", paypalPlanId: " P-GROWTH " }));
    expect(second.status).toBe(409);
    expect(second.json).toEqual(taken);

    const pro = await create(apiKey, plan({ name: "Pro", paypalPlanId: "P-PRO" }));
    const edit = await call(`/api/admin/product-versions/${pro.version.id}`, {
      method: "PATCH",
      apiKey,
      json: { paypalPlanId: "P-GROWTH" },
    });
    expect(edit.status).toBe(409);
    expect(await edit.json()).toEqual(taken);
    const stored = await db().select().from(productVersions);
    expect(stored.map((v) => [v.name, v.paypalPlanId])).toEqual([
      ["Free", null],
      ["Growth", "P-GROWTH"],
      ["Pro", "P-PRO"],
    ]);

    // A version keeps its own id when saved again; versions without one are many; a freed id may be taken.
    const again = await call(`/api/admin/product-versions/${growth.version.id}`, {
      method: "PATCH",
      apiKey,
      json: plan(),
    });
    expect(again.status).toBe(200);
    expect((await create(apiKey, plan({ name: "Custom", paypalPlanId: "" }))).status).toBe(201);
    expect((await create(apiKey, plan({ name: "Custom 2", paypalPlanId: null }))).status).toBe(201);
    await call(`/api/admin/product-versions/${growth.version.id}`, {
      method: "PATCH",
      apiKey,
      json: { paypalPlanId: null },
    });
    const moved = await call(`/api/admin/product-versions/${pro.version.id}`, {
      method: "PATCH",
      apiKey,
      json: { paypalPlanId: "P-GROWTH" },
    });
    expect(moved.status).toBe(200);
  });

  it("keeps the default version: it cannot be deleted or lose its flag until another is the default", async () => {
    const { apiKey } = await createAdmin();
    const free = (await db().select().from(productVersions).where(eq(productVersions.isDefault, true)))[0]!;
    const del = await call(`/api/admin/product-versions/${free.id}`, { method: "DELETE", apiKey });
    expect(del.status).toBe(409);
    expect(await del.json()).toEqual({
      error: `${free.name} is the default version: make another version the default before deleting it.`,
    });
    const unflag = await call(`/api/admin/product-versions/${free.id}`, {
      method: "PATCH",
      apiKey,
      json: { isDefault: false },
    });
    expect(unflag.status).toBe(409);
    expect(await defaults()).toEqual([free.name]);

    const pro = await create(apiKey, plan({ name: "Pro", isDefault: true }));
    expect(await defaults()).toEqual(["Pro"]);
    expect((await call(`/api/admin/product-versions/${free.id}`, { method: "DELETE", apiKey })).status).toBe(200);
    expect(pro.status).toBe(201);
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
