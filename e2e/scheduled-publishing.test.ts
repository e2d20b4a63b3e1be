/**
 * Scheduled publishing as `npm start` runs it (docs/publishing.md): the product started the README's way fires
 * wrangler.toml's minute cron by itself (scripts/dev/local-cron.mjs), so a mapping scheduled to publish goes live on
 * the customer's page without anyone calling anything, and one scheduled to unpublish leaves it.
 */
import { describe, expect, it } from "vitest";
import type { CustomerDashboard, Mapping } from "#contract/responses";
import { startCustomerSite } from "./support/customer-site";
import { api, registerCustomer } from "./support/product";
import { useBrowserAndMail } from "./support/session";

const session = useBrowserAndMail();
/** The minute cron's next run, plus the delivery store's 5-second memo and some slack. */
const UP_TO_TWO_CRON_RUNS_MS = 140_000;

describe("scheduled publishing under npm start", () => {
  it(
    "publishes a scheduled mapping and unpublishes it at their times, by the minute cron alone",
    async () => {
      const apiKey = await registerCustomer(session.mail, "scheduled@shop.test");
      const { jsSnippet } = await api<CustomerDashboard>("/api/user/dashboard", { apiKey });
      const site = await startCustomerSite(jsSnippet);
      session.closeLater(site.close);
      const publishAt = new Date(Date.now() + 3_000);
      const unpublishAt = new Date(publishAt.getTime() + 61_000);
      const mapping = await api<Mapping>("/api/mappings", {
        method: "POST",
        apiKey,
        body: JSON.stringify({
          url: `${site.origin}/sale`,
          htmlContent: '<p id="sale">Winter sale</p>',
          publishAt: publishAt.toISOString(),
          unpublishAt: unpublishAt.toISOString(),
        }),
      });
      expect(mapping.publishedAt).toBeNull();

      const page = await session.browser.newPage();
      const saleShown = async () => {
        await page.goto(`${site.origin}/sale`);
        await page.waitForLoadState("networkidle");
        return page.locator("[data-dynamic-content] #sale").count();
      };
      expect(await saleShown()).toBe(0);
      await expect.poll(saleShown, { timeout: UP_TO_TWO_CRON_RUNS_MS / 2, interval: 2_000 }).toBe(1);
      expect(Date.now()).toBeGreaterThanOrEqual(publishAt.getTime());
      await expect.poll(saleShown, { timeout: UP_TO_TWO_CRON_RUNS_MS, interval: 2_000 }).toBe(0);
      expect(Date.now()).toBeGreaterThanOrEqual(unpublishAt.getTime());
    },
    UP_TO_TWO_CRON_RUNS_MS + 60_000,
  );
});
