/**
 * @module The realistic platform of `npm run bench` (issue 43): its parameters and its page views, the same in Node
 * (the seeding, the hot path's locations, the read schedule) and in workerd (the volume run, simulation.mts).
 *
 * - Customers: `customers`, their shares of the views Zipf(1) (customer 1 the busiest).
 * - Pages: `pages` split among the customers in proportion to their shares (at least `MIN_PAGES` each); a customer's
 *   views Zipf(1) over its pages (page 1 the busiest). A customer maps its `mappedShare` most viewed pages (at least
 *   one, at most the design's 100,000); the snippet is on every page, so every page view asks /api/content.
 * - Crawlers: `crawlerShare` of the views carry a crawler's user agent and go to a page drawn uniformly over the
 *   customer's pages (the long tail), the customer by share.
 * - Visitors: each visitor makes `VIEWS_PER_VISITOR` views a day, so a day has views / 3 of them, drawn uniformly.
 * - Every `limitedEvery`-th customer's plan has a limit (far above any traffic here): their views spend a quota and
 *   each visitor a budget.
 */
import { BROWSER_REFERER, BROWSER_USER_AGENT } from "./protocol";
import { MONTH_SECONDS, normalizedUrlOf, seededRandom, userIdOf, type SimulatedView } from "./traffic";

export const PLATFORM = {
  /** The scenario number in user ids and host names (seed.ts uses 1-6). */
  scenario: 7,
  customers: 10_000,
  pages: 10_000_000,
  mappedShare: 0.01,
  maxMappedPerCustomer: 100_000,
  crawlerShare: 0.1,
  limitedEvery: 2,
  viewsPerMonth: 10_000e6,
  locations: 300,
  edgeShare: 0.2,
  dashboardReadsPerDay: 3,
  pollers: 10,
  pollEveryMs: 60_000,
} as const;

const MIN_PAGES = 10;
const VIEWS_PER_VISITOR = 3;
export const CRAWLER_USER_AGENT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const EULER_GAMMA = 0.5772156649015329;
/** Ranks whose Zipf(1) weights are summed exactly; past them H(r) = ln r + γ + 1/(2r) is exact to 1e-7. */
const EXACT_RANKS = 1_000;
const harmonic = new Float64Array(EXACT_RANKS + 1);
for (let r = 1; r <= EXACT_RANKS; r++) harmonic[r] = harmonic[r - 1]! + 1 / r;
const H = (n: number) => (n <= EXACT_RANKS ? harmonic[n]! : Math.log(n) + EULER_GAMMA + 1 / (2 * n));

/** The rank (1..n) of Zipf(1) over n for the uniform draw `u`, without a table of n entries. */
export function zipfRank(n: number, u: number): number {
  const target = u * H(n);
  if (n <= EXACT_RANKS || target <= harmonic[EXACT_RANKS]!) {
    let lo = 1;
    let hi = Math.min(n, EXACT_RANKS);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (harmonic[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  return Math.min(n, Math.max(EXACT_RANKS + 1, Math.ceil(Math.exp(target - EULER_GAMMA) - 0.5)));
}

/** Customer c's share of the views. */
export const customerShare = (c: number) => 1 / c / H(PLATFORM.customers);
export const pagesOf = (c: number) => Math.max(MIN_PAGES, Math.round(PLATFORM.pages * customerShare(c)));
export const mappedOf = (c: number) =>
  Math.min(PLATFORM.maxMappedPerCustomer, Math.max(1, Math.round(pagesOf(c) * PLATFORM.mappedShare)));
export const hasLimit = (c: number) => c % PLATFORM.limitedEvery === 0;

/** Mapped pages before customer c's: customer c's page p (p <= mappedOf(c)) has mapping firstMappingId + offset + p - 1. */
export function mappingOffsets(): Int32Array {
  const offsets = new Int32Array(PLATFORM.customers + 2);
  for (let c = 1; c <= PLATFORM.customers; c++) offsets[c + 1] = offsets[c]! + mappedOf(c);
  return offsets;
}

export const platformUrl = (c: number, page: number) =>
  `https://www.s${PLATFORM.scenario}c${c}.example/products/item-${page}/`;

export interface PlatformView extends SimulatedView {
  crawler: boolean;
}

/** The platform's page views at `viewsPerMonth` (Poisson), from `startMs`, deterministic for a seed. */
export class PlatformTraffic {
  private readonly random: () => number;
  private readonly offsets = mappingOffsets();
  private readonly meanGapMs: number;
  private readonly visitors: number;
  private time: number;
  private pending: PlatformView | null = null;

  constructor(
    private readonly firstMappingId: number,
    viewsPerMonth: number,
    startMs: number,
    seed: number,
  ) {
    this.random = seededRandom(seed);
    this.meanGapMs = (1000 * MONTH_SECONDS) / viewsPerMonth;
    this.visitors = Math.max(1, Math.round(viewsPerMonth / 30 / VIEWS_PER_VISITOR));
    this.time = startMs;
  }

  next(): PlatformView {
    this.time += -Math.log(1 - this.random()) * this.meanGapMs;
    const customer = zipfRank(PLATFORM.customers, this.random());
    const crawler = this.random() < PLATFORM.crawlerShare;
    const pages = pagesOf(customer);
    const item = crawler ? 1 + Math.floor(this.random() * pages) : zipfRank(pages, this.random());
    const v = Math.floor(this.random() * this.visitors);
    const mapped = item <= mappedOf(customer);
    return {
      userId: userIdOf(PLATFORM.scenario, customer),
      customer,
      item,
      url: platformUrl(customer, item),
      normalizedUrl: normalizedUrlOf(PLATFORM.scenario, customer, item),
      mappingId: mapped ? this.firstMappingId + this.offsets[customer]! + item - 1 : null,
      // Public addresses from 11.0.0.0 on: one per visitor.
      visitor: `${11 + ((v >>> 24) & 127)}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`,
      userAgent: crawler ? CRAWLER_USER_AGENT : BROWSER_USER_AGENT,
      referer: BROWSER_REFERER,
      timestamp: Math.floor(this.time),
      crawler,
    };
  }

  /** The views before `untilMs`, in order. */
  until(untilMs: number): PlatformView[] {
    const views: PlatformView[] = [];
    for (;;) {
      const view = this.pending ?? this.next();
      if (view.timestamp >= untilMs) {
        this.pending = view;
        return views;
      }
      this.pending = null;
      views.push(view);
    }
  }
}

/**
 * How many of customer c's pages without a mapping the first `dayShare` of a day at `viewsADay` views (people's and
 * crawlers') has seen, counted up to `atMost`: each page's views a Poisson process at its rate, as in
 * `pagesSettledADay`, the most viewed pages first.
 */
export function unmappedPagesSeen(c: number, viewsADay: number, dayShare: number, atMost: number): number {
  const views = viewsADay * dayShare * customerShare(c);
  const n = pagesOf(c);
  const people = (views * (1 - PLATFORM.crawlerShare)) / H(n);
  const crawlers = (views * PLATFORM.crawlerShare) / n;
  let seen = 0;
  for (let p = mappedOf(c) + 1; p <= n && seen < atMost; p++) seen -= Math.expm1(-(people / p + crawlers));
  return Math.min(atMost, Math.round(seen));
}

/** What the reducers settle in a day of the platform's traffic (`pagesSettledADay`). */
export interface DaySettles {
  /** Pages settled in the day: at each settle at a cap, and at the day's end. */
  pages: number;
  /** Settles because a shard reached its cap. */
  capSettles: number;
}

/**
 * Pages the reducers settle in a day of the platform's traffic at `viewsADay`, counted from the model alone (a day,
 * 333 million views at 10,000 million a month, is more than Miniflare can run): each page's views are a Poisson
 * process at its rate (the customer's share, Zipf(1) over its pages for people, uniform for crawlers), so a shard
 * holds D(t) = sum of (1 - e^(-rate t)) distinct pages after t of a day. A shard whose D(1 day) stays within `cap`
 * settles once, at the day's end; else it reaches the cap at t* (D(t*) = cap), settles, and starts again: it settles
 * floor(1 / t*) times `cap` pages and D of the rest of the day at the end. Pages stand for sums (a page's crawler
 * and people's views are two sums; rows per page are measured on a settle of pages).
 */
export function pagesSettledADay(
  viewsADay: number,
  shards: number,
  shardOf: (customer: number, item: number) => number,
  cap: number,
): DaySettles {
  const rates: number[][] = Array.from({ length: shards }, () => []);
  for (let c = 1; c <= PLATFORM.customers; c++) {
    const views = viewsADay * customerShare(c);
    const n = pagesOf(c);
    const people = (views * (1 - PLATFORM.crawlerShare)) / H(n);
    const crawlers = (views * PLATFORM.crawlerShare) / n;
    for (let p = 1; p <= n; p++) rates[shardOf(c, p)]!.push(people / p + crawlers);
  }
  let pages = 0;
  let capSettles = 0;
  for (const list of rates) {
    const held = (t: number) => list.reduce((sum, rate) => sum - Math.expm1(-rate * t), 0);
    const day = held(1);
    if (day <= cap) {
      pages += day;
      continue;
    }
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      if (held(mid) < cap) lo = mid;
      else hi = mid;
    }
    const settles = Math.floor(1 / hi);
    capSettles += settles;
    pages += settles * cap + held(1 - settles * hi);
  }
  return { pages, capSettles };
}
