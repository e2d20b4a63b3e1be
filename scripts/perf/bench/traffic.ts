/**
 * @module The simulated traffic of `npm run bench`'s operations part, the same in Node (the hot-path sample) and in
 * workerd (the volume run): page views arriving as a Poisson process at a stated rate, each drawn from a seeded
 * generator. The customer is Zipf(s = 1) over the kind's customers (customer 1 the busiest), the page Zipf(s = 1)
 * over the customer's URLs (item 1 the busiest), the visitor uniform over 100,000 addresses. Deterministic for a
 * seed: the same views, in the same order, at the same virtual times.
 */
import { BROWSER_REFERER, BROWSER_USER_AGENT, type TrafficKind } from "./protocol";

/** A month as the projections count it: 30 days. */
export const MONTH_SECONDS = 30 * 86_400;
export const viewsPerSecond = (viewsPerMonth: number) => viewsPerMonth / MONTH_SECONDS;

const VISITORS = 100_000;

/** A seeded generator (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Zipf(s) over the ranks 1..n: rank r is drawn with weight 1 / r^s. */
export class Zipf {
  private readonly cumulative: Float64Array;

  constructor(n: number, s = 1) {
    this.cumulative = new Float64Array(n);
    let sum = 0;
    for (let r = 1; r <= n; r++) this.cumulative[r - 1] = sum += 1 / r ** s;
    for (let i = 0; i < n; i++) this.cumulative[i]! /= sum;
  }

  /** The rank (1..n) of the uniform draw `u`. */
  rank(u: number): number {
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }
}

/** Customer c (from 1) of scenario n, as seed.ts names them: a 16-character id as the Worker issues them. */
export const userIdOf = (scenario: number, c: number) => `b${scenario}${String(c).padStart(14, "0")}`;
/** The normalised URL of customer c's item i, as seed.ts writes it. */
export const normalizedUrlOf = (scenario: number, c: number, item: number) =>
  `s${scenario}c${c}.example/products/item-${item}`;

export interface SimulatedView {
  userId: string;
  /** Customer (from 1) and item (from 1) of the kind. */
  customer: number;
  item: number;
  /** The page URL as the snippet sends it (without its hash). */
  url: string;
  normalizedUrl: string;
  /** Null: the page has no mapping (the platform's unmapped pages). */
  mappingId: number | null;
  /** The visitor's address (what `CF-Connecting-IP` would say). */
  visitor: string;
  userAgent: string;
  referer: string;
  /** Virtual epoch ms. */
  timestamp: number;
}

/** The page views of one kind of traffic at a rate, from a virtual start time. */
/** What the simulation takes its page views from. */
export interface ViewSource {
  until(untilMs: number): SimulatedView[];
}

export class Traffic implements ViewSource {
  private readonly random: () => number;
  private readonly customers: Zipf;
  private readonly items: Zipf;
  private readonly meanGapMs: number;
  private time: number;
  /** The first view past the last `until`, kept for the next call. */
  private pending: SimulatedView | null = null;

  constructor(
    private readonly kind: TrafficKind,
    viewsPerMonth: number,
    startMs: number,
    seed: number,
  ) {
    this.random = seededRandom(seed);
    this.customers = new Zipf(kind.customers);
    this.items = new Zipf(kind.urlsEach);
    this.meanGapMs = 1000 / viewsPerSecond(viewsPerMonth);
    this.time = startMs;
  }

  /** The time of the next view: exponential gaps (a Poisson process), in whole milliseconds. */
  private nextTime(): number {
    const gap = -Math.log(1 - this.random()) * this.meanGapMs;
    this.time += gap;
    return Math.floor(this.time);
  }

  next(): SimulatedView {
    const timestamp = this.nextTime();
    const customer = this.customers.rank(this.random());
    const item = this.items.rank(this.random());
    const v = Math.floor(this.random() * VISITORS);
    const { scenario, urlsEach, firstMappingId } = this.kind;
    return {
      userId: userIdOf(scenario, customer),
      customer,
      item,
      url: `https://www.s${scenario}c${customer}.example/products/item-${item}/`,
      normalizedUrl: normalizedUrlOf(scenario, customer, item),
      mappingId: firstMappingId + (customer - 1) * urlsEach + item - 1,
      visitor: `10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}`,
      userAgent: BROWSER_USER_AGENT,
      referer: BROWSER_REFERER,
      timestamp,
    };
  }

  /** The views before `untilMs`, in order. */
  until(untilMs: number): SimulatedView[] {
    const views: SimulatedView[] = [];
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
