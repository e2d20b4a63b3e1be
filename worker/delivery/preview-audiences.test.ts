/**
 * Preview links of mappings for an audience (docs/audiences.md, "In the dashboard"): a link shows its own mapping
 * whatever the previewer's attributes, so a customer in Berlin can check the mapping for phones in Japan.
 */
import { describe, expect, it } from "vitest";
import type { Mapping, PreviewLink } from "#contract/responses";
import { call, createVerifiedCustomer } from "../test/helpers";

const PAGE = "https://shop.test/offer";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36";

async function add(apiKey: string, json: object) {
  const res = await call("/api/mappings", { method: "POST", apiKey, json: { url: PAGE, ...json } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Mapping;
}

async function linkFor(apiKey: string, id: number) {
  const res = await call(`/api/mappings/${id}/preview`, { method: "POST", apiKey });
  expect(res.status).toBe(201);
  return ((await res.json()) as PreviewLink).url;
}

/** The snippet's JSON answer's HTML on `pageUrl` for a visitor from `country` with `userAgent` ("" for none). */
async function seenBy(userId: string, pageUrl: string, country: string, userAgent: string) {
  const res = await call(`/api/content?format=json&u=${userId}&url=${encodeURIComponent(pageUrl)}`, {
    headers: { "CF-IPCountry": country, "User-Agent": userAgent },
  });
  return res.status === 200 ? ((await res.json()) as { h: string }).h : "";
}

describe("preview links of audience mappings", () => {
  it("show their own mapping whatever the previewer's country and device, a draft's too", async () => {
    const { user, apiKey } = await createVerifiedCustomer("c@example.com");
    const everyone = await add(apiKey, { htmlContent: "<p>all</p>" });
    const japanPhones = await add(apiKey, {
      htmlContent: "<p>jp phones</p>",
      audience: { name: "Japan phones", country: ["JP"], device: ["mobile"] },
    });
    const germanDraft = await add(apiKey, {
      htmlContent: "<p>de draft</p>",
      audience: { name: "Germany", country: ["DE"] },
      priority: 1,
      status: "draft",
    });

    // Without a link, a desktop visitor in Germany gets the fallback (the German mapping is a draft).
    expect(await seenBy(user.id, PAGE, "DE", DESKTOP)).toBe("<p>all</p>");
    expect(await seenBy(user.id, PAGE, "JP", IPHONE)).toBe("<p>jp phones</p>");

    expect(await seenBy(user.id, await linkFor(apiKey, japanPhones.id), "DE", DESKTOP)).toBe("<p>jp phones</p>");
    expect(await seenBy(user.id, await linkFor(apiKey, germanDraft.id), "US", IPHONE)).toBe("<p>de draft</p>");
    // And the fallback's link shows the fallback to a visitor an audience would take.
    expect(await seenBy(user.id, await linkFor(apiKey, everyone.id), "JP", IPHONE)).toBe("<p>all</p>");
  });
});
