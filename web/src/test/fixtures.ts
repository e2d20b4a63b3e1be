import type { CustomerDashboard, Mapping, ProductVersion, SiteConfig, Website } from "#contract/responses";

/** A product version (or plan): 'Free', limits 100 / 1 / 10, no price, no PayPal plan, not the default. */
export const productVersion = (overrides: Partial<ProductVersion>): ProductVersion => ({
  id: 1,
  name: "Free",
  description: null,
  eventsLimit: 100,
  websitesLimit: 1,
  dynamicContentLimit: 10,
  price: null,
  paypalPlanId: null,
  isDefault: false,
  ...overrides,
});

/** A configured marketing site (https://www.dc-marketing.test), no tracking pixel, snippets from the test origin. */
export const siteConfig = (overrides: Partial<SiteConfig> = {}): SiteConfig => ({
  snippetOrigin: window.location.origin,
  links: {
    home: "https://www.dc-marketing.test",
    pricing: "https://www.dc-marketing.test/pricing",
    faqs: "https://www.dc-marketing.test/faq",
    privacyPolicy: "https://www.dc-marketing.test/privacy",
    termsOfService: "https://www.dc-marketing.test/terms",
    contact: "https://www.dc-marketing.test/contact",
  },
  trackingPixelUrl: null,
  ...overrides,
});

export const CUSTOMER_SNIPPET =
  '<script>window.dcSetUserId("u1");</script>\n<script src="https://app.example/snippet.js"></script>';

/** Ann's customer dashboard: the Starter plan (3 websites, 1000 events, unlimited content), some usage. */
export const customerDashboard = (overrides: Partial<CustomerDashboard> = {}): CustomerDashboard => ({
  userId: "u1",
  email: "ann@example.com",
  apiKey: "key-ann-123",
  jsSnippet: CUSTOMER_SNIPPET,
  productVersion: {
    id: 2,
    name: "Starter",
    description: "For a first website",
    websitesLimit: 3,
    eventsLimit: 1000,
    dynamicContentLimit: null,
  },
  limits: { websitesLimit: 3, eventsLimit: 1000, dynamicContentLimit: null },
  billingPeriodStart: "2025-03-05T12:00:00.000Z",
  billingPeriodEnd: "2025-04-05T12:00:00.000Z",
  usage: {
    activeWebsites: 1,
    dynamicEvents: 2500,
    contentGenerations: 7,
    notBilled: { requests: 0, contentGenerations: 0 },
  },
  subscription: null,
  ...overrides,
});

/** A customer's published mapping of https://example.com/a, created Mar 5, 2025, no extras, nothing scheduled. */
export const mapping = (overrides: Partial<Mapping>): Mapping => ({
  id: 1,
  userId: "u1",
  url: "https://example.com/a",
  htmlContent: "<p>a</p>",
  createdAt: "2025-03-05T10:00:00.000Z",
  publishedAt: "2025-03-06T10:00:00.000Z",
  totalRequests: 0,
  contentDeliveryCount: 0,
  match: "exact",
  placement: { position: "body-start" },
  seo: {},
  publishAt: null,
  unpublishAt: null,
  ...overrides,
});

/** An edge website claimed and not yet proven (docs/edge-delivery.md). */
export const PENDING_WEBSITE: Website = {
  hostname: "shop.example",
  origin: "https://origin.shop.example",
  mode: "edge",
  assetOrigin: null,
  status: "pending",
  verification: { type: "txt", name: "_dynamic-content.shop.example", value: "tok_0123456789abcdef0123456789ab" },
  verifiedAt: null,
  expiresAt: "2026-05-11T09:00:00.000Z",
  checkedAt: null,
  checkProblem: null,
  createdAt: "2026-05-04T09:00:00.000Z",
  updatedAt: "2026-05-04T09:00:00.000Z",
};
