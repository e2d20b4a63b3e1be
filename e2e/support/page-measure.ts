/** Opening a customer's page the way the layout tests measure it: the HTML as served, its layout shift, its asks. */
import type { Browser } from "playwright-core";

/** Sums the page's layout shifts (Chromium's Layout Instability API) from its very start. */
const RECORD_LAYOUT_SHIFTS = `
  window.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__layoutShift += entry.value;
  }).observe({ type: "layout-shift", buffered: true });`;

/** Opens `url` and answers the HTML as served, the layout shift once the page settled, and the content requests. */
export async function openPage(browser: Browser, url: string) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(RECORD_LAYOUT_SHIFTS);
  const contentRequests: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/content")) contentRequests.push(r.url());
  });
  const response = await page.goto(url, { waitUntil: "load" });
  // The snippet loads async: give it, and what it fetches, time to land (or not) before reading the shift.
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(500);
  const layoutShift = await page.evaluate(() => (window as unknown as { __layoutShift: number }).__layoutShift);
  return { page, served: await response!.text(), layoutShift, contentRequests };
}
