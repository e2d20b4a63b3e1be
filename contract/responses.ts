/**
 * @module What the API answers, typed once for the Worker and the SPA. Dates travel as ISO strings.
 */
import type { Audience } from "./audiences";
import type { Variant } from "./experiments";
import type { Placement } from "./placement";
import type { Seo } from "./seo";
import type { AuditAction } from "./schemas";
import type { MatchKind } from "./url-rules";

/** Every 4xx/5xx answers with this body. */
export interface ErrorBody {
  error: string;
}

export type Role = "user" | "admin";

export interface AuthInfo {
  userId: string;
  email: string;
  role: Role;
}

export interface RegisterResponse {
  message: string;
  email: string;
}

export interface VerifyEmailResponse {
  message: string;
  email: string;
  apiKey: string;
  /** The key was mailed now (the address's first verification); a repeated one mails nothing. */
  keyMailed: boolean;
}

export interface AdminLoginResponse {
  apiKey: string;
  user: AuthInfo;
}

/** A customer's website as a delivery target (GET /api/websites, PUT /api/websites/{hostname}). */
/** The DNS TXT record that proves a website's hostname (docs/edge-delivery.md, "Proving the hostname"). */
export interface WebsiteVerification {
  type: "txt";
  /** `_dynamic-content.<hostname>` */
  name: string;
  value: string;
}

/** A customer's claim of a website: pending until proven, then active (only active websites are served). */
export interface Website {
  hostname: string;
  origin: string;
  mode: "snippet" | "edge";
  /** Where an edge website's pages fetch their own subresources from instead of its hosts; null: off. */
  assetOrigin: string | null;
  status: "pending" | "active";
  verification: WebsiteVerification;
  /** When the hostname was proven (active claims). */
  verifiedAt: string | null;
  /** When an unproven claim lapses (pending claims; null once active). */
  expiresAt: string | null;
  /**
   * The last DNS check of a pending claim, or of an active one while its daily check fails, and what it found
   * wanting (null: not checked yet, or proven).
   */
  checkedAt: string | null;
  checkProblem: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Where one step of a website going live stands: `unknown` when the check could not be made (a resolver down). */
export type WebsiteStepState = "done" | "waiting" | "failed" | "unknown";

/**
 * The three steps of an edge website going live (GET /api/websites/{hostname}/status, docs/edge-delivery.md): DNS
 * points at us, ownership proven (the TXT record), certificate issued. A snippet website is not proxied: its `dns`
 * and `certificate` are null.
 */
export interface WebsiteStatus {
  hostname: string;
  /** Every step that applies is done (the dashboard stops re-checking). */
  ready: boolean;
  /** The hostname's A/AAAA addresses include one of the product's own (PUBLIC_ORIGIN's host). */
  dns: { state: WebsiteStepState; addresses: string[] } | null;
  /** `waiting`: not proven yet; `failed`: proven, but the daily check no longer finds the record. */
  ownership: { state: WebsiteStepState; record: WebsiteVerification; problem: string | null };
  /**
   * Cloudflare for SaaS's `ssl.status` of the hostname (`sslStatus`) where configured; `managed` where it is not
   * (the operator's Cloudflare issues it once DNS points at us).
   */
  certificate: { state: WebsiteStepState | "managed"; sslStatus: string | null } | null;
}

export interface Mapping {
  id: number;
  userId: string;
  url: string;
  /** The HTML; in the admin's lists only its first HTML_PREVIEW_CHARS characters (see `htmlContentLength`). */
  htmlContent: string;
  createdAt: string;
  publishedAt: string | null;
  totalRequests: number;
  contentDeliveryCount: number;
  /** How the URL matches pages (docs/url-rules.md): exactly, or as a prefix (a URL ending in `/*`). */
  match: MatchKind;
  /** When the minute cron publishes this draft (docs/publishing.md); null: not scheduled. */
  publishAt: string | null;
  /** When the minute cron unpublishes it; null: not scheduled. */
  unpublishAt: string | null;
  /** Where the content goes on the page (docs/placement.md); `{"position": "body-start"}` unless set. */
  placement: Placement;
  /** What the mapping sets in the page's <head> (docs/placement.md); `{}` unless set. Admin lists omit `jsonLd`. */
  seo: Seo;
  /** In the admin's lists, where `htmlContent` is a preview: the whole HTML's length in characters. */
  htmlContentLength?: number;
  /** In `group=url` answers: how many mappings the URL has, this one (its newest) included. */
  urlMappingCount?: number;
  /** Only on a mapping running an experiment (docs/experiments.md): its variants, the first the control. */
  variants?: Variant[];
  /** Only on a mapping running an experiment or a holdout: the goals it measures. */
  goals?: string[];
  /** Only on a mapping for an audience (docs/audiences.md): who it is for. */
  audience?: Audience;
  /** Only on a mapping for an audience: its place among the URL's audience mappings, lower first. */
  priority?: number;
  /**
   * Only in the customer's mappings list, on a mapping whose selector named no element in the last 7 days
   * (docs/placement.md, "Selector health"): how many views it missed.
   */
  placementMisses?: number;
  /** Only on a mapping for an audience with a holdout (docs/audiences.md, "Holdout"): the share held out, in percent. */
  holdout?: number;
}

/** `POST /api/mappings/{id}/preview`: a link that shows the mapping on its page, whatever its state (docs/publishing.md). */
export interface PreviewLink {
  url: string;
  expiresAt: string;
}

/** `GET /api/mappings/deleted`: a mapping deleted within the last 30 days, restorable until `restorableUntil`. */
export interface DeletedMapping {
  id: number;
  url: string;
  /** The first HTML_PREVIEW_CHARS characters of the HTML. */
  htmlContent: string;
  htmlContentLength: number;
  match: MatchKind;
  /** Whether it was live when it was deleted. */
  publishedAt: string | null;
  createdAt: string;
  deletedAt: string;
  restorableUntil: string;
}

/** `GET /api/mappings/match?url=`: the mapping that serves the page, or null, and why (docs/url-rules.md). */
export interface MappingMatch {
  mapping: Mapping | null;
  reason: string;
}

/** A getting-started step (docs/getting-started.md), in the order the checklist shows them. */
export const ONBOARDING_STEPS = ["verified", "mapping", "snippet", "firstView", "website"] as const;
export type OnboardingStepKey = (typeof ONBOARDING_STEPS)[number];
/** The steps a customer must have done before the checklist can be put away; `website` (edge delivery) is optional. */
export const REQUIRED_ONBOARDING_STEPS: readonly OnboardingStepKey[] = ["verified", "mapping", "snippet", "firstView"];

export interface OnboardingStep {
  key: OnboardingStepKey;
  done: boolean;
  /** When it was done, where that is known (ISO 8601). */
  at?: string;
  /** `snippet`: the host of the page it was first seen on. */
  host?: string;
}

/** `GET /api/onboarding`: the customer's getting-started steps. */
export interface Onboarding {
  steps: OnboardingStep[];
}

/** `POST /api/pick-on-page`: the frame that shows the page with the picker, valid until `expiresAt`. */
export interface PickFrame {
  frameUrl: string;
  /** The origin the picker's messages come from. */
  frameOrigin: string;
  expiresAt: string;
}

/** `POST /api/pick-on-page/check`: whether the selector names an element on each other page checked. */
export interface PickCheck {
  pages: {
    url: string;
    /** null: could not check (the page could not be had, or HTMLRewriter cannot run the selector). */
    found: boolean | null;
  }[];
}

/** `POST /api/install-check`: what the Worker found on the customer's page, and a sentence per problem. */
export interface InstallCheck {
  reachable: boolean;
  snippetFound: boolean;
  userIdMatches: boolean;
  mappingMatches: boolean;
  problems: string[];
}

/** `GET|PUT /api/url-rules`: the parameters every URL drops, and the customer's own (docs/url-rules.md). */
export interface UrlRules {
  trackingParameters: string[];
  ignoredParameters: string[];
}

export interface Stats {
  totalRequests: number;
  requestLimit: number | null;
  lastMonthRequests: number;
}

/**
 * The row of the Analytics tab (and of the per-URL series) that sums a day's views of new pages without a mapping
 * past the first 10,000 of that day (docs/analytics.md). Never a normalised URL, which starts with its host.
 */
export const OTHER_PAGES = "(other pages)";

export interface AnalyticsRow {
  /** The normalised URL, or OTHER_PAGES. */
  url: string;
  totalHits: number;
  lastAccessed: string | null;
}

export interface SmtpConfig {
  host: string;
  port: number | null;
  user: string;
  password: string;
  from: string;
}

export interface ProductVersionSummary {
  id: number;
  name: string;
  description: string | null;
  websitesLimit: number | null;
  eventsLimit: number | null;
  dynamicContentLimit: number | null;
}

/** The customer's PayPal subscription as the Account tab shows it: the newest one no plan change replaced. */
export interface CustomerSubscription {
  subscriptionId: string;
  /** PayPal's status as we last heard it: pending (approved, first payment not yet confirmed), active, ... */
  status: "pending" | "active" | "suspended" | "cancelled" | "expired";
  /** The plan it pays for, id and name (null when that version is gone). */
  productVersionId: number | null;
  plan: string | null;
  /** The end of the period its verified payments cover (null before the first). */
  paidThrough: string | null;
}

export interface CustomerDashboard {
  userId: string;
  email: string;
  apiKey: string;
  jsSnippet: string;
  productVersion: ProductVersionSummary | null;
  /** The limits that hold for the customer (null: unlimited): the plan's, or an admin's per-user limit. */
  limits: { websitesLimit: number | null; eventsLimit: number | null; dynamicContentLimit: number | null };
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
  usage: {
    activeWebsites: number;
    dynamicEvents: number;
    contentGenerations: number;
    /**
     * This period's requests and content generations that did not count against the plan: known crawlers', and
     * those of a visitor past their 500 a day (docs/analytics.md).
     */
    notBilled: { requests: number; contentGenerations: number };
  };
  /** The customer's subscription, or null when they never subscribed through PayPal. */
  subscription: CustomerSubscription | null;
}

/** `DELETE /api/mappings/{id}?scope=url`: the URL's mappings deleted (each restorable for 30 days), and those left. */
export interface GroupDeleteResponse {
  message: string;
  deleted: number;
  /** More than one request deletes (docs/scaling.md): what is left of the URL; remove again for the rest. */
  remaining: number;
}

export interface MessageResponse {
  message: string;
}

export interface LoginRequestResponse {
  message: string;
  email: string;
}

export interface LoginVerifyResponse {
  apiKey: string;
  user: AuthInfo;
}

/** A plan as customers and admins see it. Limits: null = unlimited. Price in whole currency units. */
export interface ProductVersion {
  id: number;
  name: string;
  description: string | null;
  eventsLimit: number | null;
  websitesLimit: number | null;
  dynamicContentLimit: number | null;
  price: number | null;
  paypalPlanId: string | null;
  isDefault: boolean;
}

export interface PaymentHistoryItem {
  date: string;
  product: string;
  amount: number;
  currency: string;
  /** The billing period the payment paid for; nulls when it paid for none (pending, refunded, not the plan's price). */
  billingPeriod: { start: string | null; end: string | null };
  /** PayPal's payment status: Completed, Pending, Refunded, Reversed, ... */
  status?: string | null;
  transactionId?: string;
}

/** A user as the admin console lists it (SPEC.md §3 "Admin user"). Limits: null = unlimited. */
export interface AdminUser {
  userId: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  isActive: boolean;
  createdAt: string;
  productVersionId: number | null;
  productVersionName: string | null;
  /** The profile status of the user's latest PayPal transaction ('Cancelled' marks a cancelled subscription). */
  profileStatus: string | null;
  totalRequests: number;
  uniqueUrlsCount: number;
  dynamicContentCount: number;
  eventsUsed: number;
  websitesUsed: number;
  dynamicContentDeliveryUsed: number;
  /** Content requests in the current billing period: what `requestLimit` caps. */
  periodRequests: number;
  requestLimit: number | null;
  /** The limits that hold for the user: the admin's override (`limitOverrides`) when set, else the plan's. */
  uniqueUrlLimit: number | null;
  eventsLimit: number | null;
  dynamicContentLimit: number | null;
  /** The admin's per-user limits as stored: null follows the plan, 0 is unlimited (PATCH …/limits). */
  limitOverrides: { uniqueUrlLimit: number | null; dynamicContentLimit: number | null };
  /**
   * Only in the detail answer (GET /api/admin/users/:userId), null in the list: a customer's key, or the admin's own
   * key of this sign-in; never another admin's.
   */
  apiKey: string | null;
  billingPeriodStart: string | null;
  billingPeriodEnd: string | null;
}

export interface AdminUserDetail extends AdminUser {
  /**
   * The first page of the user's mappings ("events"), newest first, HTML as a preview; the rest from
   * `GET /api/admin/users/:userId/mappings`.
   */
  mappings: Mapping[];
}

/** The user's mappings with the same URL (ignoring case and http(s)://): the admin's Websites & Events tab. */
export interface MappingGroup {
  /** The URL ignoring case and http(s)://: what the group's mappings share (the `url` filter of their events). */
  key: string;
  /** The newest mapping's URL as it was written. */
  url: string;
  events: number;
  totalRequests: number;
  contentDeliveryCount: number;
  /** The newest mapping's creation date. */
  lastCreatedAt: string;
}

export interface AdminMapping extends Mapping {
  userEmail: string;
}

export interface AdminOverview {
  totalUsers: number;
  /**
   * In `currency` (SPEC.md §5: completed transactions with a receivedAt date; non-numeric amounts count 0): our
   * receiver's completed payments in the billing currency, less those refunded in full or reversed.
   */
  revenueLast7Days: number;
  revenueCurrentYear: number;
  /** The billing currency (BILLING_CURRENCY, default USD). */
  currency?: string;
  /** Whether page views are being counted (docs/analytics.md, "When a fold fails"). */
  analytics: AnalyticsHealth;
  /** The newest mails that could not be sent, newest first (at most `MAIL_FAILURES_SHOWN`). */
  mailFailures: MailFailure[];
}

/** Which mail it was: the product's mails by purpose (`worker/email/messages.ts`). */
export type MailKind =
  "verification" | "api-key" | "login-code" | "sign-in-link" | "admin-login-notice" | "website" | "test";

/** A mail that could not be sent, as the admin overview lists it. */
export interface MailFailure {
  /** When (ISO). */
  at: string;
  kind: MailKind;
  /** The recipient, masked: `an•••@example.com`. */
  recipient: string;
  /** The transport's reason, without the message or a credential. */
  error: string;
}

/** A customer whose analytics events the fold set aside, because folding them failed. */
export interface QuarantinedCustomer {
  userId: string;
  email: string;
  /** The views (and goals) set aside. */
  views: number;
  /** Why their fold failed, as SQLite said. */
  reason: string;
  /** When their events were first set aside (ISO). */
  since: string;
  /** Whether the fold still tries them again by itself; false: they wait for an admin's release. */
  retrying: boolean;
}

export interface AnalyticsHealth {
  /** How old the oldest view still waiting to be counted is, in seconds; null when none waits. */
  oldestPendingSeconds: number | null;
  /** The oldest handoff to the reducers that failed and is still owed: how often it failed, and why. */
  failingHandoff: { failures: number; lastError: string | null } | null;
  /** How many customers have events set aside; `quarantined` lists the first 20, longest set aside first. */
  quarantinedCustomers: number;
  quarantined: QuarantinedCustomer[];
  /** Page views and goals of the last 7 days that could not be counted, per day and reason, newest first. */
  lost: AnalyticsLoss[];
}

/**
 * Items not counted on a UTC day: `enqueue`, refused by the queue before they could be counted; `too-old`, brought
 * back by a redelivery after the ledger's window, when counting them could count them twice (kept in the archive).
 */
export interface AnalyticsLoss {
  day: string;
  reason: "enqueue" | "too-old";
  items: number;
}

export interface ApiKeyResponse {
  apiKey: string;
}

/** `GET /api/admin/users/:userIdOrEmail/api-key` for a customer: a key that acts as them until `expiresAt`. */
export interface ImpersonationResponse {
  apiKey: string;
  expiresAt: string;
}

/** Something an admin did to an account (`GET /api/admin/audit-events`). */
export interface AuditEvent {
  id: number;
  action: AuditAction;
  actorEmail: string;
  targetId: string | null;
  targetEmail: string;
  createdAt: string;
}

/** A PayPal transaction as the lists show it (SPEC.md §3 "Transaction (list)"). */
export interface Transaction {
  transactionId: string;
  receivedAt: string | null;
  recurringPaymentId: string | null;
  payerEmail: string | null;
  payerFirstName: string | null;
  payerLastName: string | null;
  payerId: string | null;
  payerStatus: string | null;
  productName: string | null;
  productType: string | null;
  amount: number | string | null;
  currency: string | null;
  fee: string | null;
  tax: string | null;
  paymentStatus: string | null;
  paymentType: string | null;
  subscriptionType: string | null;
  paymentCycle: string | null;
  nextPaymentDate: string | null;
  profileStatus: string | null;
  transactionType: string | null;
  receiverEmail: string | null;
  receiverId: string | null;
  addressName: string | null;
  addressStreet: string | null;
  addressCity: string | null;
  addressState: string | null;
  addressZip: string | null;
  addressCountry: string | null;
  addressCountryCode: string | null;
  residenceCountry: string | null;
  addressStatus: string | null;
  ipnTrackId: string | null;
  notifyVersion: string | null;
  /**
   * True when the payment is linked to an account: the holder of its stored subscription, else the account with
   * its payer's email. False rows are the ones SPEC.md's 'No matching user account found' marks.
   */
  hasMatchingUser: boolean;
}

export interface PayPalClientConfig {
  /** Null when PayPal is not configured: the plan dialog then shows no subscribe buttons. */
  clientId: string | null;
  sdkUrl: string;
  /** The currency plans are billed in (BILLING_CURRENCY, default USD), for the SDK's `currency` option. */
  currency?: string;
}

/** The marketing site's pages that the top bar, footer and register form link to (SPEC.md §2). */
export interface ExternalLinks {
  home: string;
  pricing: string;
  faqs: string;
  privacyPolicy: string;
  termsOfService: string;
  contact: string;
}

/** `GET /api/site-config`: what the operator configured for the SPA's outside addresses. */
export interface SiteConfig {
  /** Null when no marketing site (SITE_URL) is configured: the SPA then shows no external links. */
  links: ExternalLinks | null;
  /** The 1x1 image of the register and login pages; null: none is loaded. */
  trackingPixelUrl: string | null;
  /** The origin snippets load `snippet.js` from (DELIVERY_ORIGIN, else the product's own). */
  snippetOrigin: string;
}

/** One transaction's detail, grouped as the detail screen shows it (SPEC.md §3 "Transaction detail groups"). */
export interface TransactionDetail {
  transactionId: string;
  hasMatchingUser: boolean;
  receivedAt: string | null;
  payerInfo: {
    email: string | null;
    originalEmail: string | null;
    firstName: string | null;
    lastName: string | null;
    payerId: string | null;
    payerStatus: string | null;
  };
  productInfo: { productName: string | null; productType: string | null };
  paymentDetails: {
    amount: number | string | null;
    currency: string | null;
    tax: string | null;
    fee: string | null;
    paymentType: string | null;
    paymentStatus: string | null;
    outstandingBalance: string | null;
    shipping: string | null;
  };
  subscriptionData: {
    subscriptionType: string | null;
    paymentCycle: string | null;
    amountPerCycle: string | null;
    initialPaymentAmount: string | null;
    profileStatus: string | null;
    nextPaymentDate: string | null;
    transactionId: string;
    recurringPaymentId: string | null;
    transactionType: string | null;
  };
  merchantInfo: { email: string | null; businessEmail: string | null; receiverId: string | null };
  payerAddress: {
    name: string | null;
    street: string | null;
    city: string | null;
    state: string | null;
    postalCode: string | null;
    country: string | null;
    countryCode: string | null;
    residenceCountry: string | null;
    addressStatus: string | null;
  };
  additionalInfo: {
    transactionSubject: string | null;
    timeCreated: string | null;
    verifySign: string | null;
    ipnTrackId: string | null;
    notifyVersion: string | null;
  };
}

export interface UpdateTransactionEmailResponse {
  message: string;
  transaction: TransactionDetail;
  /**
   * Whose payment it is now: the holder of its stored subscription (whom a correction never changes), else the
   * account with the corrected email; null when neither exists.
   */
  linked: { email: string; by: "subscription" | "email" } | null;
}

/**
 * `GET /api/admin/billing/unclaimed-subscriptions`: a PayPal subscription that paid us but that no account stores,
 * with its latest completed payment and the account that payment is linked to (by payer email), or null.
 */
export interface UnclaimedSubscription {
  subscriptionId: string;
  lastPaymentAt: string;
  transactionId: string;
  payerEmail: string | null;
  productName: string | null;
  amount: number | string | null;
  currency: string | null;
  account: { id: string; email: string } | null;
}

/**
 * On the answer to a mapping change that is saved but not yet delivered (the delivery store refused the write;
 * the repairs retry it): the dashboard tells the customer. Absent when the change is live.
 */
export const DELIVERY_PENDING_HEADER = "X-Delivery-Pending";

/**
 * On the answer to a change that was written to the delivery store: the time (ISO 8601) by which every Cloudflare
 * location serves it, the guarantee of docs/scaling.md (KV's 60-second propagation, a location's 30-second cache of
 * the customer's state, the isolates' 5-second memos). The location that answered serves it at once.
 */
export const DELIVERY_EVERYWHERE_BY_HEADER = "X-Delivery-Everywhere-By";
