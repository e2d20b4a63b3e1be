import { describe, expect, it } from "vitest";
import type { Mapping } from "../contract/responses";
import { expectStoreMatchesD1, storedEntry } from "../test/delivery-store";
import { call, createVerifiedCustomer } from "../test/helpers";

async function add(apiKey: string, url: string, htmlContent = "<p>hi</p>") {
  return call("/api/mappings", { method: "POST", apiKey, json: { url, htmlContent } });
}

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
    expect(await storedEntry(user.id, "example.com/pricing")).toEqual({ mappingId: created.id, html: "<h1>Sale</h1>" });
  });

  it("refuses an invalid URL with 'Please enter a valid URL' and adds nothing", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const res = await add(apiKey, "not a url");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "Please enter a valid URL" });
    expect(await (await call("/api/mappings", { apiKey })).json()).toEqual([]);
  });

  it("takes HTML of 256 KB (262,144 bytes) and refuses one byte more, counted in UTF-8, storing nothing", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    expect((await add(apiKey, "https://a.com/full", "x".repeat(262_144))).status).toBe(201);
    const error = { error: "HTML content must be at most 256 KB (262,144 bytes)" };
    for (const html of ["x".repeat(262_145), "€".repeat(87_382) /* 87,382 characters, 262,146 bytes */]) {
      const res = await add(apiKey, "https://a.com/over", html);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(error);
    }
    const list = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(list.map((m) => m.url)).toEqual(["https://a.com/full"]);
    expect(await storedEntry(user.id, "a.com/full")).toMatchObject({ html: "x".repeat(262_144) });
    await expectStoreMatchesD1(user.id);
  });

  it("takes a URL of 2,048 characters, refuses a longer one and one that is not http(s)", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const url = (length: number) => `https://a.com/${"p".repeat(length - "https://a.com/".length)}`;
    expect((await add(apiKey, url(2_048))).status).toBe(201);
    for (const [bad, error] of [
      [url(2_049), "URL must be at most 2,048 characters"],
      ["ftp://a.com/file", "URL must start with http:// or https://"],
      ["javascript:alert(1)", "URL must start with http:// or https://"],
    ]) {
      const res = await add(apiKey, bad!);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
    expect((await (await call("/api/mappings", { apiKey })).json()) as Mapping[]).toHaveLength(1);
  });

  it("takes any HTML within its cap however JSON escapes it, and answers 413 past the body cap", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    // Every quote doubles in JSON: 262,144 bytes of HTML become 524,288 bytes of body, still within 532,480.
    expect((await add(apiKey, "https://a.com/quotes", '"'.repeat(262_144))).status).toBe(201);
    const res = await add(apiKey, "https://a.com/huge", "x".repeat(600_000));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      error: "Request body too large: at most 520 KB (532,480 bytes) is accepted",
    });
    const list = (await (await call("/api/mappings", { apiKey })).json()) as Mapping[];
    expect(list.map((m) => m.url)).toEqual(["https://a.com/quotes"]);
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
    expect(await storedEntry(user.id, "a.com/x")).toBeNull();
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
    expect(await storedEntry(user.id, "a.com/x")).toBeNull();
    const published = (await (
      await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "published" } })
    ).json()) as Mapping;
    expect(published.publishedAt).not.toBeNull();
    expect(await storedEntry(user.id, "a.com/x")).toEqual({ mappingId: id, html: "<p>hi</p>" });
  });

  it("refuses an unknown status", async () => {
    const { apiKey } = await createVerifiedCustomer("c@example.com");
    const { id } = (await (await add(apiKey, "https://a.com/x")).json()) as Mapping;
    const res = await call(`/api/mappings/${id}/status`, { method: "PATCH", apiKey, json: { status: "gone" } });
    expect(res.status).toBe(400);
  });
});
