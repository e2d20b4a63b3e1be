/**
 * Experiments (docs/experiments.md), as visitors' browsers meet them: a customer runs an A/B test on a page of their
 * own site, delivered by the snippet, and on a page of their edge website (exp.test, proven through DNS and reached
 * by Chromium's --host-resolver-rules). Each visitor gets one variant and keeps it (the snippet's id in
 * localStorage, the edge's first-party cookie), whatever the user agent (crawlers are only left out of the counts),
 * a goal reached converts the visitor in
 * the variant they saw, the minute cron's fold counts visitors and conversions, and making a variant permanent from
 * the dashboard gives it to everyone.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExperimentResults } from "#contract/experiments";
import type { CustomerDashboard, Mapping } from "#contract/responses";
import { launchBrowser } from "./support/browser";
import { startCustomerSite, type CustomerSite } from "./support/customer-site";
import {
  api,
  baseURL,
  countPendingViews,
  COUNTS_POLL,
  openWithKey,
  proveWebsite,
  registerCustomer,
} from "./support/product";
import { useBrowserAndMail } from "./support/session";

const CUSTOMER = "experiments@shop.test";
/** Another customer's: a plan's one website is the snippet's page or the edge website. */
const EDGE_CUSTOMER = "experiments-edge@shop.test";
const EDGE_HOST = "exp.test";
const CONTROL = "<p id=v>A</p>";
const EXPERIMENT = {
  htmlContent: CONTROL,
  variants: [
    { key: "A", weight: 50 },
    { key: "B", weight: 50, htmlContent: "<p id=v>B</p>" },
  ],
  goals: ["signup"],
};
/** Fresh visitors besides the first: with a 50/50 split, both variants show among them but once in 2,048 runs. */
const FRESH_VISITORS = 12;
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const session = useBrowserAndMail();
let edgeBrowser: Browser;
let site: CustomerSite;
let apiKey: string;
let edgeKey: string;
let userId: string;
let snippetMapping: Mapping;
let edgeMapping: Mapping;

const snippetPage = () => `${site.origin}/landing`;
const edgePage = `http://${EDGE_HOST}/landing`;

/** The variant the page shows, once the snippet (or the edge) put it in. */
async function shownVariant(page: Page): Promise<string> {
  const shown = page.locator("[data-dynamic-content] #v");
  await expect.poll(() => shown.count()).toBe(1);
  return shown.innerText();
}

/** Opens the snippet's page in `context`: the variant the content endpoint named and the one the page shows. */
async function openSnippetPage(context: BrowserContext) {
  const page = await context.newPage();
  const answer = page.waitForResponse((r) => r.url().includes("/api/content?"));
  await page.goto(snippetPage());
  const json = (await (await answer).json()) as { h: string; variant?: string };
  const shown = await shownVariant(page);
  expect(json.variant).toBe(shown);
  expect(json.h).toBe(`<p id=v>${shown}</p>`);
  return { page, variant: shown };
}

const results = (mapping: Mapping, key = apiKey) =>
  api<ExperimentResults>(`/api/mappings/${mapping.id}/experiment`, { apiKey: key });

/** The visitors and the conversions to "signup" each variant has in the results, after a fold. */
async function countedAfterFold(mapping: Mapping, key = apiKey) {
  await countPendingViews();
  const { variants } = await results(mapping, key);
  return Object.fromEntries(variants.map((v) => [v.key, { visitors: v.visitors, conversions: v.conversions }]));
}

const mappingNow = async (id: number, key = apiKey) =>
  (await api<Mapping[]>("/api/mappings?limit=100", { apiKey: key })).find((m) => m.id === id);

/** A verified customer, their user id and their site with the snippet on every page. */
async function customerWithSite(email: string) {
  const key = await registerCustomer(session.mail, email);
  const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey: key });
  const id = JSON.parse(jsSnippet.match(/setDynamicContentUserId\(("[^"]+")\)/)![1]!) as string;
  const customerSite = await startCustomerSite(jsSnippet);
  session.closeLater(customerSite.close);
  return { key, id, customerSite };
}

beforeAll(async () => {
  ({ key: apiKey, id: userId, customerSite: site } = await customerWithSite(CUSTOMER));
  const edge = await customerWithSite(EDGE_CUSTOMER);
  edgeKey = edge.key;
  edgeBrowser = await launchBrowser({ [EDGE_HOST]: new URL(baseURL).host });
  session.closeLater(() => edgeBrowser.close());
  await proveWebsite(edgeKey, EDGE_HOST, { origin: `http://127.0.0.1:${edge.customerSite.port}`, mode: "edge" });

  const create = (key: string, url: string) =>
    api<Mapping>("/api/mappings", { method: "POST", apiKey: key, body: JSON.stringify({ url, ...EXPERIMENT }) });
  snippetMapping = await create(apiKey, snippetPage());
  edgeMapping = await create(edgeKey, edgePage);
  expect(snippetMapping.variants?.map((v) => [v.key, v.htmlContent, v.weight])).toEqual([
    ["A", CONTROL, 50],
    ["B", "<p id=v>B</p>", 50],
  ]);
  expect(snippetMapping.goals).toEqual(["signup"]);
});

afterAll(() => edgeBrowser?.close());

describe("an experiment delivered by the snippet", () => {
  it("shows each visitor one variant and keeps it, splits visitors, and counts a goal as the variant's conversion", async () => {
    // The first visitor: a variant, the same after a reload, the visitor's id kept in localStorage.
    const first = await session.browser.newContext();
    const { page, variant } = await openSnippetPage(first);
    const vid = await page.evaluate(() => localStorage.getItem("dc_vid"));
    expect(vid).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    const again = page.waitForResponse((r) => r.url().includes("/api/content?"));
    await page.reload();
    expect(new URL((await again).url()).searchParams.get("vid")).toBe(vid);
    expect(await shownVariant(page)).toBe(variant);
    expect(await page.evaluate(() => localStorage.getItem("dc_vid"))).toBe(vid);

    // The text answer names the same variant in X-Variant, for the same id, to a crawler too (never by user agent).
    const text = (userAgent: string) =>
      fetch(`${baseURL}/api/content?${new URLSearchParams({ u: userId, url: snippetPage(), vid: vid! })}`, {
        headers: { "User-Agent": userAgent },
      });
    const asVisitor = await text("Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0");
    expect(asVisitor.headers.get("X-Variant")).toBe(variant);
    expect(await asVisitor.text()).toBe(`<p id=v>${variant}</p>`);
    const asCrawler = await text(GOOGLEBOT);
    expect(asCrawler.headers.get("X-Variant")).toBe(variant);
    expect(await asCrawler.text()).toBe(`<p id=v>${variant}</p>`);

    // The goal, reached on the page: accepted for counting.
    const goal = page.waitForResponse((r) => r.url().endsWith("/api/goals"));
    await page.evaluate(() =>
      (window as unknown as { dynamicContent: { goal(name: string): void } }).dynamicContent.goal("signup"),
    );
    expect((await goal).status()).toBe(202);
    await first.close();

    // Fresh visitors, each in a context of their own: both variants show.
    const seen = [variant];
    for (let i = 0; i < FRESH_VISITORS; i++) {
      const context = await session.browser.newContext();
      seen.push((await openSnippetPage(context)).variant);
      await context.close();
    }
    expect(new Set(seen)).toEqual(new Set(["A", "B"]));

    // Counted by the minute cron's fold: each visitor once in the variant they saw, the first one's goal as a
    // conversion of theirs.
    const visitorsOf = (key: string) => seen.filter((v) => v === key).length;
    await expect
      .poll(() => countedAfterFold(snippetMapping), COUNTS_POLL)
      .toEqual({
        A: { visitors: visitorsOf("A"), conversions: variant === "A" ? 1 : 0 },
        B: { visitors: visitorsOf("B"), conversions: variant === "B" ? 1 : 0 },
      });
    const answer = await results(snippetMapping);
    expect(answer.goals).toEqual(["signup"]);
    expect(answer.weights).toEqual([
      { key: "A", weight: 50 },
      { key: "B", weight: 50 },
    ]);
    expect(Number.isNaN(Date.parse(answer.startedAt))).toBe(false);
    expect(answer.srm).toEqual({ pValue: expect.any(Number), ok: expect.any(Boolean) });
    expect(answer.srm.pValue).toBeGreaterThanOrEqual(0);
    expect(answer.srm.pValue).toBeLessThanOrEqual(1);
    expect(answer.variants.map((v) => [v.key, v.goal])).toEqual([
      ["A", "signup"],
      ["B", "signup"],
    ]);
    const control = answer.variants[0]!;
    expect(control).toMatchObject({ uplift: null, upliftCi95: null, probabilityToBeatControl: null });
    const converted = answer.variants.find((v) => v.key === variant)!;
    expect(converted.rate).toBeCloseTo(1 / visitorsOf(variant));
    expect(converted.rate).toBeGreaterThan(0);
    expect(answer.variants[1]!.probabilityToBeatControl).toEqual(expect.any(Number));
  });
});

describe("an experiment at the edge", () => {
  it("serves the variant in the HTML, keeps the visitor in a first-party cookie, and leaves crawlers out of the counts", async () => {
    const context = await edgeBrowser.newContext();
    const page = await context.newPage();
    const first = (await page.goto(edgePage))!;
    const served = await first.text();
    const variant = served.match(/<div data-dynamic-content=""><p id=v>([AB])<\/p><\/div>/)?.[1];
    expect(variant, served).toBeDefined();
    expect(await shownVariant(page)).toBe(variant);
    expect(first.headers()["cache-control"]).toBe("private, no-store");
    const cookies = await context.cookies(edgePage);
    const vid = cookies.find((c) => c.name === "dc_vid");
    expect(vid?.value).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(vid?.domain).toBe(EDGE_HOST);
    // The snippet on the page keeps the edge's id: both deliver the same variant.
    expect(await page.evaluate(() => localStorage.getItem("dc_vid"))).toBe(vid!.value);

    for (let i = 0; i < 2; i++) {
      const reload = (await page.reload())!;
      expect(await reload.text()).toContain(`<div data-dynamic-content=""><p id=v>${variant}</p></div>`);
      expect(await reload.headerValue("set-cookie")).toBeNull();
    }
    expect((await context.cookies(edgePage)).find((c) => c.name === "dc_vid")?.value).toBe(vid!.value);
    await context.close();

    // A crawler is treated like any visitor (a fresh id and its variant), but not counted.
    const crawler = await edgeBrowser.newContext({ userAgent: GOOGLEBOT });
    const crawled = (await (await crawler.newPage()).goto(edgePage))!;
    expect(await crawled.text()).toMatch(/<div data-dynamic-content=""><p id=v>[AB]<\/p><\/div>/);
    expect((await crawler.cookies(edgePage)).find((c) => c.name === "dc_vid")?.value).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    await crawler.close();

    // One visitor counted, in their variant; the crawler not at all.
    await expect
      .poll(() => countedAfterFold(edgeMapping, edgeKey), COUNTS_POLL)
      .toEqual({
        A: { visitors: variant === "A" ? 1 : 0, conversions: 0 },
        B: { visitors: variant === "B" ? 1 : 0, conversions: 0 },
      });
  });
});

describe("making a variant permanent", () => {
  it("from the dashboard's experiment results gives everyone that variant and ends the experiment", async () => {
    const dashboard = await openWithKey(session.browser, apiKey, "/dashboard", "URL Mappings");
    const row = dashboard.getByRole("row").filter({ hasText: snippetPage() });
    await row.getByRole("button", { name: "Experiment results" }).click();
    const dialog = dashboard.getByRole("dialog", { name: "Experiment results" });
    await dialog.getByRole("button", { name: "Make B permanent" }).click();
    const confirm = dashboard.getByRole("alertdialog", { name: "Make B permanent?" });
    await confirm.getByRole("button", { name: "Make B permanent" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => row.getByRole("button", { name: "Experiment results" }).count()).toBe(0);
    await dashboard.close();

    const promoted = await mappingNow(snippetMapping.id);
    expect(promoted?.htmlContent).toBe("<p id=v>B</p>");
    expect(promoted).not.toHaveProperty("variants");
    expect(promoted).not.toHaveProperty("goals");
    // The results end with the experiment.
    await expect(results(snippetMapping)).rejects.toThrow(/404/);

    // Every visitor, new or known, sees B (once the delivery store's few seconds of memory have passed).
    for (let i = 0; i < 4; i++) {
      const context = await session.browser.newContext();
      const page = await context.newPage();
      await expect
        .poll(async () => {
          await page.goto(snippetPage());
          const shown = page.locator("[data-dynamic-content] #v");
          await shown.waitFor();
          return shown.innerText();
        })
        .toBe("B");
      await context.close();
    }

    // Through the API, at the edge: B for visitors and crawlers alike, and no cookie any more.
    await api<Mapping>(`/api/mappings/${edgeMapping.id}/experiment/promote`, {
      method: "POST",
      apiKey: edgeKey,
      body: JSON.stringify({ variant: "B" }),
    });
    expect(await mappingNow(edgeMapping.id, edgeKey)).not.toHaveProperty("variants");
    for (const userAgent of [undefined, GOOGLEBOT]) {
      const context = await edgeBrowser.newContext(userAgent ? { userAgent } : {});
      const page = await context.newPage();
      await expect.poll(async () => (await (await page.goto(edgePage))!.text()).includes("<p id=v>B</p>")).toBe(true);
      expect(await context.cookies(edgePage)).toEqual([]);
      await context.close();
    }
  });
});
