import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { InstallCheck } from "#contract/responses";
import { snippetText } from "#contract/snippet-text";
import { THROTTLES } from "../auth/throttle";
import { recordRateEvent } from "../models/rate-limits";
import { call, createVerifiedCustomer, db, PRODUCTION_ORIGIN, testEnv } from "../test/helpers";
import { standInDns, type DnsStandIn } from "../test/websites";
import { INSTALL_CHECK_MAX_BYTES, INSTALL_CHECK_TARGET_PROBLEMS } from "../websites/install-check";

const PAGE = "https://shop.test/offer";
const PUBLIC_ADDRESS = "93.184.216.34";

/** The customer's web server, on every public host the test names: answers `serve` and records what it was asked. */
let serve: (request: Request) => Response | Promise<Response>;
let asked: Request[];
let dns: DnsStandIn;
beforeEach(() => {
  asked = [];
  serve = () => new Response("no page", { status: 404 });
  dns = standInDns((request) => {
    if (!dns.addresses.has(new URL(request.url).hostname)) return undefined;
    asked.push(request);
    return serve(request);
  });
  dns.addresses.set("shop.test", [PUBLIC_ADDRESS]);
});
afterEach(() => vi.restoreAllMocks());

const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(`<!doctype html><html><head><title>Shop</title></head><body><h1>Offer</h1>${body}</body></html>`, {
    headers: { "Content-Type": "text/html; charset=utf-8", ...headers },
  });

const production = () => testEnv({ ENVIRONMENT: "production" });

async function check(apiKey: string, url: string) {
  const res = await call("/api/install-check", { method: "POST", apiKey, json: { url } }, production());
  return { status: res.status, body: (await res.json()) as InstallCheck & { error?: string } };
}

/** A customer with a mapping on PAGE. */
async function customer() {
  const c = await createVerifiedCustomer(`c${crypto.randomUUID()}@example.com`);
  const mapping = await call("/api/mappings", {
    method: "POST",
    apiKey: c.apiKey,
    json: { url: PAGE, htmlContent: "<p>Sale</p>" },
  });
  expect(mapping.status).toBe(201);
  return c;
}

describe("POST /api/install-check", () => {
  it("finds the customer's snippet and their mapping: no problems", async () => {
    const { user, apiKey } = await customer();
    serve = () => html(snippetText(PRODUCTION_ORIGIN, user.id));
    const { status, body } = await check(apiKey, PAGE);
    expect(status).toBe(200);
    expect(body).toEqual({
      reachable: true,
      snippetFound: true,
      userIdMatches: true,
      mappingMatches: true,
      problems: [],
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.url).toBe(PAGE);
  });

  it("says the snippet is missing, and that a snippet in Google Tag Manager cannot be seen", async () => {
    const { apiKey } = await customer();
    serve = () => html("<p>Nothing here</p>");
    const { body } = await check(apiKey, PAGE);
    expect(body).toEqual({
      reachable: true,
      snippetFound: false,
      userIdMatches: false,
      mappingMatches: true,
      problems: [`The snippet is missing: no script on the page loads ${PRODUCTION_ORIGIN}/snippet.js.`],
    });
    serve = () =>
      html(
        `<script>(function(){var s=document.createElement("script");s.src="https://www.googletagmanager.com/gtm.js?id=GTM-X";})();</script>`,
      );
    const tagged = await check(apiKey, PAGE);
    expect(tagged.body.problems[0]).toContain("The page uses Google Tag Manager");
  });

  it("names another account's user id on the page", async () => {
    const { user, apiKey } = await customer();
    serve = () => html(snippetText(PRODUCTION_ORIGIN, "someone-else"));
    const { body } = await check(apiKey, PAGE);
    expect(body).toMatchObject({ reachable: true, snippetFound: true, userIdMatches: false });
    expect(body.problems).toEqual([
      `The page sets another user id ("someone-else"), not yours ("${user.id}"): copy the snippet from your dashboard again.`,
    ]);
  });

  it("says when the page loads the snippet without setting a user id, and when the page is not HTML", async () => {
    const { apiKey } = await customer();
    serve = () => html(`<script async src="${PRODUCTION_ORIGIN}/snippet.js"></script>`);
    expect((await check(apiKey, PAGE)).body).toEqual({
      reachable: true,
      snippetFound: true,
      userIdMatches: false,
      mappingMatches: true,
      problems: ["The page loads the snippet but does not set your user id: its first <script> part is missing."],
    });
    serve = () => Response.json({ page: "offer" });
    expect((await check(apiKey, PAGE)).body).toEqual({
      reachable: true,
      snippetFound: false,
      userIdMatches: false,
      mappingMatches: true,
      problems: ["The page is not HTML (its server answered application/json)."],
    });
  });

  it("says which Content-Security-Policy directive blocks the snippet, from the header and from a meta tag", async () => {
    const { user, apiKey } = await customer();
    serve = () =>
      html(
        `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self' ${PRODUCTION_ORIGIN} 'nonce-abc'">` +
          snippetText(PRODUCTION_ORIGIN, user.id),
        {
          "Content-Security-Policy":
            "script-src 'self' 'unsafe-inline' https://*.dc.test https://dc.test; connect-src 'self'",
        },
      );
    const { body } = await check(apiKey, PAGE);
    expect(body).toMatchObject({ reachable: true, snippetFound: true, userIdMatches: true, mappingMatches: true });
    expect(body.problems).toEqual([
      `The page's Content-Security-Policy (header) does not allow the snippet's requests to ${PRODUCTION_ORIGIN}: add ${PRODUCTION_ORIGIN} to connect-src.`,
      "The page's Content-Security-Policy (meta tag) blocks the inline script that sets your user id: add its nonce or hash to script-src.",
      `The page's Content-Security-Policy (meta tag) does not allow the snippet's requests to ${PRODUCTION_ORIGIN}: add ${PRODUCTION_ORIGIN} to default-src.`,
    ]);
  });

  it("accepts a policy that allows our origin, the inline part by its nonce", async () => {
    const { user, apiKey } = await customer();
    serve = () =>
      html(snippetText(PRODUCTION_ORIGIN, user.id).replace("<script>", '<script nonce="abc">'), {
        "Content-Security-Policy": `default-src 'self'; script-src 'nonce-abc' ${PRODUCTION_ORIGIN}/snippet.js; connect-src https:`,
      });
    expect((await check(apiKey, PAGE)).body.problems).toEqual([]);
  });

  it("says the page is unreachable with its status, and that the URL matches no mapping", async () => {
    const { apiKey } = await customer();
    const { body } = await check(apiKey, "https://shop.test/missing");
    expect(body).toEqual({
      reachable: false,
      snippetFound: false,
      userIdMatches: false,
      mappingMatches: false,
      problems: [
        "The page could not be loaded: its server answered HTTP 404.",
        "No mapping serves shop.test/missing: no published mapping has this URL or a prefix of it (such as shop.test/*).",
      ],
    });
  });

  it("follows a redirect the outbound rule allows, and refuses one to a private address", async () => {
    const { user, apiKey } = await customer();
    dns.addresses.set("www.shop.test", [PUBLIC_ADDRESS]);
    dns.addresses.set("inside.shop.test", ["10.0.0.1"]);
    serve = (request) =>
      new URL(request.url).hostname === "shop.test"
        ? new Response(null, { status: 301, headers: { Location: "https://www.shop.test/offer" } })
        : html(snippetText(PRODUCTION_ORIGIN, user.id));
    expect((await check(apiKey, PAGE)).body).toMatchObject({
      reachable: true,
      snippetFound: true,
      userIdMatches: true,
    });
    expect(asked.map((r) => r.url)).toEqual([PAGE, "https://www.shop.test/offer"]);

    asked = [];
    serve = () => new Response(null, { status: 302, headers: { Location: "https://inside.shop.test/" } });
    const { body } = await check(apiKey, PAGE);
    expect(body.reachable).toBe(false);
    expect(body.problems[0]).toBe(
      `The page redirects to https://inside.shop.test/, which Dynamic Content may not fetch: ${INSTALL_CHECK_TARGET_PROBLEMS["private-address"]}.`,
    );
    expect(asked.map((r) => r.url)).toEqual([PAGE]);
  });

  it("refuses a URL the outbound rule does not allow, fetching nothing", async () => {
    const { apiKey } = await customer();
    dns.addresses.set("intranet.shop.test", ["192.168.1.1"]);
    const { status, body } = await check(apiKey, "https://intranet.shop.test/");
    expect(status).toBe(400);
    expect(body.error).toBe(INSTALL_CHECK_TARGET_PROBLEMS["private-address"]);
    expect((await check(apiKey, "http://shop.test/offer")).body.error).toBe(INSTALL_CHECK_TARGET_PROBLEMS.https);
    expect((await check(apiKey, "not a url")).status).toBe(400);
    expect(asked).toEqual([]);
  });

  it("reads no more than 2 MB of the page", async () => {
    const { user, apiKey } = await customer();
    serve = () => html("x".repeat(INSTALL_CHECK_MAX_BYTES) + snippetText(PRODUCTION_ORIGIN, user.id));
    expect((await check(apiKey, PAGE)).body).toMatchObject({ reachable: true, snippetFound: false });
  });

  it("refuses more checks than the account's hourly budget with 429, fetching nothing", async () => {
    const { user, apiKey } = await customer();
    const { max } = THROTTLES["install-check"].perAccount;
    for (let i = 0; i < max; i++) await recordRateEvent(db(), `install-check:account:${user.id.toLowerCase()}`);
    const { status, body } = await check(apiKey, PAGE);
    expect(status).toBe(429);
    expect(body.error).toMatch(/^Too many page checks\. Please try again in /);
    expect(asked).toEqual([]);
  });
});
