/** Calls to the started product, for setting up what a test needs without clicking through it. */
import type { Browser, Page } from "playwright-core";
import { inject } from "vitest";
import type { VerifyEmailResponse, Website } from "#contract/responses";
import type { MailServer } from "./mail-server";

/** The product this test worker's files use (global-setup.ts starts one for each worker). */
const product = inject("products")[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % inject("products").length]!;
export const baseURL = product.baseURL;
export const admin = inject("admin");
/** The marketing site (SITE_URL) the product was started with. */
export const siteUrl = inject("siteUrl");
/**
 * How long a page view takes, at most, to show in the counts: gathered for 5 s in its isolate (and up to 2.5 s more
 * in the relay, delivery/page-view-relay.ts), consumed within a second, then folded by the minute cron (worker/analytics/fold.ts), which the local cron fires at each full minute
 * and a test may fire sooner (`countPendingViews`).
 */
export const COUNTED_WITHIN_MS = 75_000;
/** How often a test polling for counts fires the minute cron. */
export const COUNTS_POLL = { timeout: COUNTED_WITHIN_MS, interval: 1_000 };

/** Fires the minute cron now, through the dev server's trigger as the local cron does: pending views are counted. */
export async function countPendingViews(): Promise<void> {
  const res = await fetch(`${baseURL}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`);
  if (!res.ok) throw new Error(`the minute cron answered ${res.status}`);
}

export async function api<T>(path: string, init: RequestInit & { apiKey?: string } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.apiKey) headers.set("X-API-Key", init.apiKey);
  if (init.body) headers.set("Content-Type", "application/json");
  const res = await fetch(`${baseURL}${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * Claims `hostname` for the customer, publishes its TXT record at the run's DNS stand-in (as the customer would at
 * their DNS provider) and has the product check it: the website is proven and served from then on.
 */
export async function proveWebsite(apiKey: string, hostname: string, settings: { origin: string; mode: string }) {
  const claim = await api<Website>(`/api/websites/${hostname}`, {
    method: "PUT",
    apiKey,
    body: JSON.stringify(settings),
  });
  const published = await fetch(`${product.dnsRecordsUrl}?name=${encodeURIComponent(claim.verification.name)}`, {
    method: "PUT",
    body: claim.verification.value,
  });
  if (!published.ok) throw new Error(`publishing the TXT record: ${published.status}`);
  const proven = await api<Website>(`/api/websites/${hostname}/verify`, { method: "POST", apiKey });
  if (proven.status !== "active") throw new Error(`${hostname} was not proven: ${proven.checkProblem}`);
  return proven;
}

/** The admin's key, signed in once for the whole run by global-setup.ts (admin sign-ins are throttled per account). */
export const adminApiKey = async (): Promise<string> => product.adminKey;
/** The PayPal stand-in's REST API this product was started with. */
export const paypalApi = product.paypalApi;

/** As the admin, points the product's mail at the test's SMTP server. */
export async function useMailServer(mail: MailServer) {
  await api("/api/smtp-config", {
    method: "POST",
    apiKey: await adminApiKey(),
    body: JSON.stringify({
      host: "127.0.0.1",
      port: String(mail.port),
      user: "mailer",
      password: "mail-pass",
      from: "noreply@dc.test",
    }),
  });
}

/** The verification link in a mail: page A's (/verify-email) or page B's (/register-form). */
export const linkIn = (text: string | undefined) =>
  text?.match(/https?:\/\/\S+(?:verify-email|register-form)\?token=\S+/)?.[0];

/** A verified customer made through the API and the mailed link; answers their API key. */
export async function registerCustomer(mail: MailServer, email: string): Promise<string> {
  await api("/api/register", { method: "POST", body: JSON.stringify({ email }) });
  const message = await mail.waitFor(email, (m) => linkIn(m.text) !== undefined);
  const token = new URL(linkIn(message.text)!).searchParams.get("token")!;
  const { apiKey } = await api<VerifyEmailResponse>(`/api/verify-email?token=${encodeURIComponent(token)}`);
  return apiKey;
}

/**
 * A new page of the product whose browser stores `apiKey` (and `role`, when given) as a login leaves them, open on a
 * screen that needs no key; the login screens have their own tests.
 */
export async function signedInPage(
  browser: Browser,
  apiKey: string,
  role?: "user" | "admin",
  options: Parameters<Browser["newPage"]>[0] = {},
): Promise<Page> {
  const page = await browser.newPage(options);
  await page.goto(`${baseURL}/snippet`);
  await page.evaluate(
    ([key, r]) => {
      localStorage.setItem("apiKey", key);
      if (r) localStorage.setItem("userRole", r);
    },
    [apiKey, role] as const,
  );
  return page;
}

/**
 * Opens a screen of the product in a new page as the customer whose key the browser stores (as the register page
 * leaves it), and its tab, if given.
 */
export async function openWithKey(browser: Browser, apiKey: string, path: string, tab?: string): Promise<Page> {
  const page = await signedInPage(browser, apiKey);
  await page.goto(`${baseURL}${path}`);
  if (tab) await page.getByRole("tab", { name: tab }).click();
  return page;
}
