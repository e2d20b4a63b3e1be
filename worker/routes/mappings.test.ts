import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Mapping } from "../contract/responses";
import type { DeliveryDocument } from "../delivery/document";
import { call, createVerifiedCustomer } from "../test/helpers";

async function add(apiKey: string, url: string, htmlContent = "<p>hi</p>") {
  return call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent } });
}

const kvDoc = (userId: string) => env.DELIVERY.get<DeliveryDocument>(`doc:${userId}`, "json");

describe("/api/mappings", () => {
  it("adds a published mapping, lists it with zero counts, and writes it through to KV", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await add(apiKey, "https://www.Example.com/Pricing/", "<h1>Sale</h1>");
    expect(res.status).toBe(201);
    const created = (await res.json()) as Mapping;
    expect(created).toMatchObject({
      userId: user.id,
      url: "https://www.Example.com/Pricing/",
      htmlContent: "<h1>Sale</h1>",
      totalRequests: 0,
      contentDeliveryCount: 0,
    });
    expect(created.publishedAt).not.toBeNull();
    const list = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(list.map((m) => m.id)).toEqual([created.id]);
    expect((await kvDoc(user.id))?.mappings["example.com/pricing"]).toEqual({ i: created.id, h: "<h1>Sale</h1>" });
  });

  it("refuses an invalid URL with 'Please enter a valid URL' and adds nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await add(apiKey, "not a url");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Please enter a valid URL" });
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
  });

  it("needs an API key", async () => {
    expect((await call("/api/mappings")).status).toBe(401);
    expect(
      (await call("/api/mappings", { method: "POST", json: { url: "https://a.com", htmlContent: "" } })).status,
    ).toBe(401);
  });

  it("shows a customer only their own mappings", async () => {
    const a = await createVerifiedCustomer("a@example.com");
    const b = await createVerifiedCustomer("b@example.com");
    await add(a.apiKey, "https://a.com/");
    expect(await (await call("/api/mappings", { apiKey: b.apiKey })).json()).toEqual([]);
  });

  it("deletes the customer's own mapping and removes it from KV", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const res = await call(`/api/mappings/${id}`, { method: "DELETE", apiKey });
    expect(await res.json()).toEqual({ message: "URL mapping deleted successfully" });
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
    expect((await kvDoc(user.id))?.mappings).toEqual({});
  });

  it("answers 404 for another customer's mapping and changes nothing", async () => {
    const owner = await createVerifiedCustomer("owner@example.com");
    const other = await createVerifiedCustomer("other@example.com");
    const { id } = (await (await add(owner.apiKey, "https://a.com/x")).json()) as Mapping;
    const del = await call(`/api/mappings/${id}`, { method: "DELETE", apiKey: other.apiKey });
    expect(del.status).toBe(404);
    expect(await del.json()).toEqual({ error: "Mapping not found" });
    const patch = await call(`/api/mappings/${id}/status`, {
      method: "PATCH",
      apiKey: other.apiKey,
      json: { status: "unpublished" },
    });
    expect(patch.status).toBe(404);
    const list = (await (await call("/api/mappings", { apiKey: owner.apiKey })).json()) as Mapping[];
    expect(list).toHaveLength(1);
    expect(list[0]!.publishedAt).not.toBeNull();
  });

  it("answers 400 for a non-numeric id and 404 for an unknown one", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await call("/api/mappings/abc", { method: "DELETE", apiKey })).status).toBe(400);
    expect((await call("/api/mappings/999", { method: "DELETE", apiKey })).status).toBe(404);
  });

  it("unpublishes (Draft, out of KV) and publishes again", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const draft = (await (
      await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "unpublished" } })
    ).json()) as Mapping;
    expect(draft.publishedAt).toBeNull();
    expect((await kvDoc(user.id))?.mappings).toEqual({});
    const published = (await (
      await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "published" } })
    ).json()) as Mapping;
    expect(published.publishedAt).not.toBeNull();
    expect(Object.keys((await kvDoc(user.id))!.mappings)).toEqual(["a.com/x"]);
  });

  it("refuses an unknown status", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const res = await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "gone" } });
    expect(res.status).toBe(400);
  });
});
