import { describe, expect, it } from "vitest";
import { audienceAttributes, deviceOf, preferredLanguage } from "./audience-attributes";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const IPAD = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148";
const ANDROID_PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36";
const ANDROID_TABLET = "Mozilla/5.0 (Linux; Android 14; SM-X700) AppleWebKit/537.36 Chrome/120 Safari/537.36";
const GOOGLEBOT_SMARTPHONE =
  "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 Chrome/120 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const DESKTOP = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120 Safari/537.36";

describe("deviceOf", () => {
  it.each([
    [IPHONE, null, "mobile"],
    [IPAD, null, "tablet"],
    [ANDROID_PHONE, null, "mobile"],
    [ANDROID_TABLET, null, "tablet"],
    [GOOGLEBOT_SMARTPHONE, null, "mobile"],
    [DESKTOP, null, "desktop"],
    [DESKTOP, "?1", "mobile"],
    [null, null, "desktop"],
  ] as const)("%s with Sec-CH-UA-Mobile %s is %s", (ua, hint, device) => {
    expect(deviceOf(ua, hint)).toBe(device);
  });
});

describe("preferredLanguage", () => {
  it.each([
    ["de-DE,de;q=0.9,en;q=0.8", "de-de"],
    ["en;q=0.5, fr", "fr"],
    ["*", undefined],
    ["", undefined],
    [null, undefined],
    ["pt-BR;q=0", undefined],
  ])("%s gives %s", (header, language) => {
    expect(preferredLanguage(header)).toBe(language);
  });
});

describe("audienceAttributes", () => {
  it("reads the country from CF-IPCountry, the device, language, query and referrer from the request and page", () => {
    const request = new Request("https://dc.test/api/content", {
      headers: { "CF-IPCountry": "de", "User-Agent": IPHONE, "Accept-Language": "de-AT,de;q=0.9" },
    });
    const attributes = audienceAttributes(
      request,
      "https://shop.example/p?utm_source=nl&plan=pro",
      "https://www.google.de/",
      "new",
    );
    expect(attributes).toMatchObject({
      country: "DE",
      device: "mobile",
      language: "de-at",
      referrer: "search",
      visitor: "new",
    });
    expect(attributes.query.get("utm_source")).toBe("nl");
    expect(attributes.query.get("plan")).toBe("pro");
  });

  it("knows no country for Cloudflare's XX and T1, and no query for a page URL it cannot read", () => {
    const request = new Request("https://dc.test/", { headers: { "CF-IPCountry": "XX" } });
    const attributes = audienceAttributes(request, "not a url", undefined, "returning");
    expect(attributes.country).toBeUndefined();
    expect(attributes.referrer).toBe("direct");
    expect([...attributes.query]).toEqual([]);
  });
});
