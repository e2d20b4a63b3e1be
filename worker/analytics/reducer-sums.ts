/**
 * @module What a reducer (reducer.ts) holds: page views summed per customer, URL, day, mapping and crawler flag,
 * as the fold counts them (fold.ts reads a `HeldSum` as `n` views), and per customer the views of those that spent
 * no quota (reducer-visitors.ts). Plain data and arithmetic, no bindings.
 *
 * The sums are kept in typed arrays, one column per field (n, delivered, timestamp and mapping as 8 bytes each;
 * customer, next of the customer's chain and URL start as 4; URL length and day as 2; crawler flag and the row
 * known at handoff as 1), in pages of `PAGE_ROWS` rows, and each URL once, as UTF-8 in pages of 1 MB: 129
 * bytes a sum of a 60-character URL with the hash table, against 515 as a Map of string keys and arrays before
 * (reducer-memory.node.test.ts). Pages are added,
 * never copied, as sums come. An open-addressing table finds a key's row by a 32-bit hash; two keys of one hash are
 * told apart by comparing every field and the URL's bytes, so a collision never merges two URLs. A customer's sums
 * form a chain in the order they came, which `take` walks; sums taken leave dead rows, reclaimed when a page is next
 * needed and they outnumber the live ones.
 */
import type { HeldSum } from "../messages/analytics";
import { fmix32, fnv1a32Bytes } from "../lib/hash";

/** About what a customer holding sums takes (their id, chain ends and billing totals in a Map). */
const CUSTOMER_BYTES = 200;

/**
 * A reducer holding more sums than this, or more bytes of them (`HeldSums.bytes`), settles everything it holds: with
 * its visitors at their cap it then stays under half a Durable Object's 128 MB while it settles
 * (reducer-memory.node.test.ts, docs/scaling.md).
 */
export const MAX_HELD_SUMS = 150_000;
export const MAX_HELD_BYTES = 20 * 1024 * 1024;

/**
 * A settle writes its customers in groups of about this much JSON, each in its own D1 transaction with their
 * checkpoints (reducer.ts `settleNow`), so that a settle of everything at the caps never has all of it as JSON at once.
 */
export const SETTLE_GROUP_BYTES = 4 * 1024 * 1024;

/** The customers in order, in groups of about `SETTLE_GROUP_BYTES` of their sums' JSON (one customer at least). */
export function settleGroups(held: HeldSums, userIds: readonly string[]): string[][] {
  const groups: string[][] = [];
  let group: string[] = [];
  let bytes = 0;
  for (const userId of userIds) {
    const size = held.jsonBytesOf(userId);
    if (group.length > 0 && bytes + size > SETTLE_GROUP_BYTES) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(userId);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** Rows per page of columns: pages are added as sums come, never copied, so memory grows by a page at most. */
const PAGE_BITS = 13;
const PAGE_ROWS = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_ROWS - 1;
/** Bytes per page of URLs; a URL (at most 65,535 bytes) never spans two. */
const TEXT_PAGE = 1 << 20;
const FIRST_SLOTS = 1 << 12;
const NONE = -1;
/** The customer index of a row taken, and the end of a chain. */
const DEAD = 0xffffffff;
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

interface CustomerChain {
  index: number;
  head: number;
  tail: number;
  /** The customer's sums held, and their URLs' bytes. */
  sums: number;
  text: number;
  /** Views and deliveries not by a crawler, and of those the ones that spent no quota. */
  billing: [views: number, deliveries: number, unbilled: number, unbilledDeliveries: number];
  /** When the first of the sums held came (epoch ms; 0 when read back from the log: not known). */
  heldSince: number;
}

/** The columns of `PAGE_ROWS` rows. */
class Page {
  /** Per row: n, delivered, timestamp, mapping (NaN for none). */
  readonly numbers = new Float64Array(PAGE_ROWS * 4);
  /** Per row: the customer's index (`DEAD` once taken), the next row of the customer's chain, the URL's start. */
  readonly links = new Uint32Array(PAGE_ROWS * 3);
  readonly urlLengths = new Uint16Array(PAGE_ROWS);
  readonly days = new Uint16Array(PAGE_ROWS);
  readonly crawlers = new Uint8Array(PAGE_ROWS);
  /** Per row: `HeldSum.known` while every part added to it had the same, else 0. */
  readonly known = new Uint8Array(PAGE_ROWS);
  static readonly bytes = PAGE_ROWS * (4 * 8 + 3 * 4 + 2 * 2 + 1 + 1);
}

/**
 * Sums by customer; adding a sum of a key already held adds to it. `bytes` is the memory they take, so that a
 * reducer settles by memory, whatever the length of the URLs strangers send. `hashUrl` is for tests (collisions).
 */
export class HeldSums {
  private pages: Page[] = [];
  private textPages: Uint8Array[] = [];
  /** Row + 1 per slot, 0 for an empty one; a power of two, kept at most half full (rows taken included). */
  private slots = new Int32Array(FIRST_SLOTS);
  /** Rows used, taken ones included until reclaimed (`rebuild`); the next free byte of URLs. */
  private rows = 0;
  private textUsed = 0;
  private live = 0;
  private byCustomer = new Map<string, CustomerChain>();
  private nextCustomer = 0;
  private dayIndex = new Map<string, number>();
  private dayNames: string[] = [];
  private scratch = new Uint8Array(256);

  constructor(private readonly hashUrl: (bytes: Uint8Array, from: number, length: number) => number = fnv1a32Bytes) {}

  /** How many sums are held, all customers together (what memory they take). */
  get size(): number {
    return this.live;
  }

  /** The bytes the sums take: their pages of columns and URLs, their hash table and their customers. */
  get bytes(): number {
    return (
      this.pages.length * Page.bytes +
      this.textPages.length * TEXT_PAGE +
      this.slots.byteLength +
      this.byCustomer.size * CUSTOMER_BYTES
    );
  }

  customers(): string[] {
    return [...this.byCustomer].filter(([, chain]) => chain.head !== NONE).map(([userId]) => userId);
  }

  has(userId: string): boolean {
    return (this.byCustomer.get(userId)?.head ?? NONE) !== NONE;
  }

  /** About the bytes of JSON the customer's sums make (their URLs and 200 bytes for the rest of each). */
  jsonBytesOf(userId: string): number {
    const chain = this.byCustomer.get(userId);
    return chain ? chain.text + 200 * chain.sums : 0;
  }

  /** Adds sums that came at `heldAt` (0: read back from the log, when is not known). */
  add(sums: Iterable<HeldSum>, heldAt = Date.now()): void {
    for (const sum of sums) {
      const chain = this.chainOf(sum.userId);
      if (chain.head === NONE) chain.heldSince = heldAt;
      if (!sum.crawler) {
        chain.billing[0] += sum.n;
        chain.billing[1] += sum.delivered;
      }
      this.hold(chain, sum);
    }
  }

  /** Adds views of the customer's held sums that spent no quota (a handoff's, billed by reducer-visitors.ts). */
  addUnbilled(userId: string, views: number, deliveries: number): void {
    const billing = this.chainOf(userId).billing;
    billing[2] += views;
    billing[3] += deliveries;
  }

  /** What the customer's held views spend of their quota: billed views and deliveries. */
  billed(userId: string): { requests: number; deliveries: number } {
    const [views, deliveries, unbilled, unbilledDeliveries] = this.byCustomer.get(userId)?.billing ?? [0, 0, 0, 0];
    return { requests: views - unbilled, deliveries: deliveries - unbilledDeliveries };
  }

  /** Every sum held, still held. */
  list(): HeldSum[] {
    return [...this.each()];
  }

  /** Every sum held, still held, one at a time (a reducer rewriting its log makes no array of them all). */
  *each(): Generator<HeldSum> {
    for (const userId of this.customers()) yield* this.sumsOf(userId);
  }

  /** The customer's sums, still held, in the order they came. */
  *sumsOf(userId: string): Generator<HeldSum> {
    const chain = this.byCustomer.get(userId);
    for (let row = chain?.head ?? NONE; row !== NONE; row = this.next(row)) yield this.sumAt(userId, row);
  }

  /** Every customer's views held that spent no quota, still held (`addUnbilled` takes them back). */
  listUnbilled(): [userId: string, views: number, deliveries: number][] {
    return [...this.byCustomer]
      .filter(([, { billing }]) => billing[2] > 0 || billing[3] > 0)
      .map(([userId, { billing }]) => [userId, billing[2], billing[3]]);
  }

  /** When the customer's first sum still held came (epoch ms; 0: not known, read back from the log); null: none held. */
  heldSince(userId: string): number | null {
    const chain = this.byCustomer.get(userId);
    return chain && chain.head !== NONE ? chain.heldSince : null;
  }

  /** The customer's sums as `take` answers them, still held (a reader adds them to the counters: models/held-counts.ts). */
  heldOf(userId: string): HeldSum[] {
    const chain = this.byCustomer.get(userId);
    if (!chain || chain.head === NONE) return [];
    const sums = [...this.sumsOf(userId)];
    const [, , unbilled, unbilledDelivered] = chain.billing;
    if (unbilled > 0 || unbilledDelivered > 0) {
      const carrier = sums.find((sum) => !sum.crawler) ?? sums[0]!;
      carrier.unbilled = unbilled;
      carrier.unbilledDelivered = unbilledDelivered;
    }
    return sums;
  }

  /**
   * The customer's sums, no longer held, with their views that spent no quota on one of them (only the customer's
   * totals read those: fold.ts). A customer without sums keeps them until sums come: a handoff's tallies and sums
   * may travel in different parts.
   */
  take(userId: string): HeldSum[] {
    const sums = this.heldOf(userId);
    if (sums.length === 0) return sums;
    const chain = this.byCustomer.get(userId)!;
    for (let row = chain.head; row !== NONE; row = this.next(row)) this.pageOf(row).links[(row & PAGE_MASK) * 3] = DEAD;
    this.live -= sums.length;
    this.byCustomer.delete(userId);
    // Nothing is copied while a settle takes customer after customer: rows taken are reclaimed when sums next come.
    if (this.live === 0) this.rebuild();
    return sums;
  }

  /** Several customers' sums, taken one customer at a time as they are read (`take`). */
  *takeEach(userIds: Iterable<string>): Generator<HeldSum> {
    for (const userId of userIds) yield* this.take(userId);
  }

  private chainOf(userId: string): CustomerChain {
    let chain = this.byCustomer.get(userId);
    if (!chain) {
      chain = {
        index: this.nextCustomer++,
        head: NONE,
        tail: NONE,
        sums: 0,
        text: 0,
        billing: [0, 0, 0, 0],
        heldSince: 0,
      };
      this.byCustomer.set(userId, chain);
    }
    return chain;
  }

  private dayOf(day: string): number {
    let index = this.dayIndex.get(day);
    if (index === undefined) {
      index = this.dayNames.length;
      if (index > 0xffff) throw new RangeError("A reducer holds sums of at most 65,536 days");
      this.dayNames.push(day);
      this.dayIndex.set(day, index);
    }
    return index;
  }

  private pageOf(row: number): Page {
    return this.pages[row >>> PAGE_BITS]!;
  }

  /** Adds the sum's counts to its key's row, or makes one. */
  private hold(chain: CustomerChain, sum: HeldSum): void {
    if (this.scratch.length < sum.url.length * 3) this.scratch = new Uint8Array(sum.url.length * 3);
    const { written: length } = utf8.encodeInto(sum.url, this.scratch);
    if (length > 0xffff) throw new RangeError("A held sum's URL has at most 65,535 bytes");
    const day = this.dayOf(sum.day);
    const mapping = sum.mappingId ?? NaN;
    const crawler = sum.crawler ? 1 : 0;
    const mask = this.slots.length - 1;
    let slot = this.slotOf(this.scratch, 0, length, chain.index, day, mapping, crawler) & mask;
    for (let at = this.slots[slot]!; at !== 0; slot = (slot + 1) & mask, at = this.slots[slot]!) {
      if (this.sameKey(at - 1, length, chain.index, day, mapping, crawler)) {
        const numbers = this.pageOf(at - 1).numbers;
        const i = ((at - 1) & PAGE_MASK) * 4;
        numbers[i] = numbers[i]! + sum.n;
        numbers[i + 1] = numbers[i + 1]! + sum.delivered;
        numbers[i + 2] = Math.max(numbers[i + 2]!, sum.timestamp);
        // Sure only if every part said the same: a mapping deleted in between may make its URL new for the day.
        const known = this.pageOf(at - 1).known;
        if (known[(at - 1) & PAGE_MASK] !== (sum.known ?? 0)) known[(at - 1) & PAGE_MASK] = 0;
        return;
      }
    }
    if (this.rows - this.live > this.live && (this.rows & PAGE_MASK) === 0) {
      this.rebuild();
      return this.hold(chain, sum);
    }
    if ((this.rows + 1) * 2 > this.slots.length) {
      this.rehash(this.slots.length * 2);
      return this.hold(chain, sum);
    }
    if ((this.textUsed & (TEXT_PAGE - 1)) + length > TEXT_PAGE || this.textUsed === this.textPages.length * TEXT_PAGE) {
      if (this.textPages.length * TEXT_PAGE > this.textUsed) this.textUsed = this.textPages.length * TEXT_PAGE;
      this.textPages.push(new Uint8Array(TEXT_PAGE));
    }
    const row = this.rows++;
    if (row >>> PAGE_BITS === this.pages.length) this.pages.push(new Page());
    this.live += 1;
    this.pageOf(row).numbers.set([sum.n, sum.delivered, sum.timestamp, mapping], (row & PAGE_MASK) * 4);
    this.textPages[(this.textUsed / TEXT_PAGE) >>> 0]!.set(
      this.scratch.subarray(0, length),
      this.textUsed & (TEXT_PAGE - 1),
    );
    this.append(chain, row, this.textUsed, length, day, crawler, sum.known ?? 0);
    this.textUsed += length;
    this.slots[slot] = row + 1;
  }

  private append(
    chain: CustomerChain,
    row: number,
    start: number,
    length: number,
    day: number,
    crawler: number,
    known: number,
  ) {
    const page = this.pageOf(row);
    const i = row & PAGE_MASK;
    page.links[i * 3] = chain.index;
    page.links[i * 3 + 1] = DEAD;
    page.links[i * 3 + 2] = start;
    page.urlLengths[i] = length;
    page.days[i] = day;
    page.crawlers[i] = crawler;
    page.known[i] = known;
    if (chain.tail === NONE) chain.head = row;
    else this.pageOf(chain.tail).links[(chain.tail & PAGE_MASK) * 3 + 1] = row;
    chain.tail = row;
    chain.sums += 1;
    chain.text += length;
  }

  /** The URL of a row: its text page and where it starts there. */
  private urlOf(row: number): [page: Uint8Array, from: number, length: number] {
    const page = this.pageOf(row);
    const start = page.links[(row & PAGE_MASK) * 3 + 2]!;
    return [this.textPages[(start / TEXT_PAGE) >>> 0]!, start & (TEXT_PAGE - 1), page.urlLengths[row & PAGE_MASK]!];
  }

  /** The slot a key's search starts at: the URL's hash mixed with the rest of the key. */
  private slotOf(
    bytes: Uint8Array,
    from: number,
    length: number,
    customer: number,
    day: number,
    mapping: number,
    crawler: number,
  ) {
    let hash = this.hashUrl(bytes, from, length);
    hash = Math.imul(hash ^ customer, 0x9e3779b1);
    hash = Math.imul(hash ^ day, 0x85ebca77);
    hash = Math.imul(hash ^ (Number.isNaN(mapping) ? 0x7fffffff : mapping | 0), 0xc2b2ae3d);
    return fmix32((hash ^ crawler) >>> 0);
  }

  /** Whether the row is live and holds this key, its URL being the `length` bytes in `scratch`. */
  private sameKey(row: number, length: number, customer: number, day: number, mapping: number, crawler: number) {
    const page = this.pageOf(row);
    const i = row & PAGE_MASK;
    if (page.links[i * 3] !== customer || page.days[i] !== day || page.crawlers[i] !== crawler) return false;
    if (page.urlLengths[i] !== length || !Object.is(page.numbers[i * 4 + 3], mapping)) return false;
    const [text, from] = this.urlOf(row);
    for (let j = 0; j < length; j++) if (text[from + j] !== this.scratch[j]) return false;
    return true;
  }

  private next(row: number): number {
    const next = this.pageOf(row).links[(row & PAGE_MASK) * 3 + 1]!;
    return next === DEAD ? NONE : next;
  }

  private sumAt(userId: string, row: number): HeldSum {
    const page = this.pageOf(row);
    const i = row & PAGE_MASK;
    const mapping = page.numbers[i * 4 + 3]!;
    const [text, from, length] = this.urlOf(row);
    return {
      userId,
      url: fromUtf8.decode(text.subarray(from, from + length)),
      day: this.dayNames[page.days[i]!]!,
      mappingId: Number.isNaN(mapping) ? null : mapping,
      crawler: page.crawlers[i] ? 1 : 0,
      n: page.numbers[i * 4]!,
      delivered: page.numbers[i * 4 + 1]!,
      timestamp: page.numbers[i * 4 + 2]!,
      ...(page.known[i] ? { known: page.known[i] as 1 | 2 } : {}),
    };
  }

  /** A hash table of `size` slots for the rows (live ones; the rows taken are found by none). */
  private rehash(size: number) {
    this.slots = new Int32Array(size);
    const mask = size - 1;
    for (const chain of this.byCustomer.values()) {
      for (let row = chain.head; row !== NONE; row = this.next(row)) {
        const page = this.pageOf(row);
        const i = row & PAGE_MASK;
        const [text, from, length] = this.urlOf(row);
        let slot =
          this.slotOf(text, from, length, chain.index, page.days[i]!, page.numbers[i * 4 + 3]!, page.crawlers[i]!) &
          mask;
        while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
        this.slots[slot] = row + 1;
      }
    }
  }

  /**
   * Drops the rows taken: the live ones are copied, chain by chain, into new pages (customers keep their index, a
   * customer with only billing totals too), and the table is made again for them.
   */
  private rebuild() {
    const from = this.pages;
    const fromText = this.textPages;
    const chains = [...this.byCustomer.values()].map((chain) => [chain, chain.head] as const);
    this.pages = [];
    this.textPages = [];
    this.rows = this.textUsed = 0;
    const read = (row: number) => [from[row >>> PAGE_BITS]!, row & PAGE_MASK] as const;
    for (const [chain, head] of chains) {
      chain.head = chain.tail = NONE;
      chain.sums = chain.text = 0;
      for (let at = head; at !== NONE;) {
        const [page, i] = read(at);
        const start = page.links[i * 3 + 2]!;
        const length = page.urlLengths[i]!;
        if (
          (this.textUsed & (TEXT_PAGE - 1)) + length > TEXT_PAGE ||
          this.textUsed === this.textPages.length * TEXT_PAGE
        ) {
          if (this.textPages.length * TEXT_PAGE > this.textUsed) this.textUsed = this.textPages.length * TEXT_PAGE;
          this.textPages.push(new Uint8Array(TEXT_PAGE));
        }
        const row = this.rows++;
        if (row >>> PAGE_BITS === this.pages.length) this.pages.push(new Page());
        this.pageOf(row).numbers.set(page.numbers.subarray(i * 4, i * 4 + 4), (row & PAGE_MASK) * 4);
        const text = fromText[(start / TEXT_PAGE) >>> 0]!;
        const s = start & (TEXT_PAGE - 1);
        this.textPages[(this.textUsed / TEXT_PAGE) >>> 0]!.set(
          text.subarray(s, s + length),
          this.textUsed & (TEXT_PAGE - 1),
        );
        this.append(chain, row, this.textUsed, length, page.days[i]!, page.crawlers[i]!, page.known[i]!);
        this.textUsed += length;
        const next = page.links[i * 3 + 1]!;
        at = next === DEAD ? NONE : next;
      }
    }
    this.live = this.rows;
    let size = FIRST_SLOTS;
    while (size < this.rows * 2) size *= 2;
    this.rehash(size);
    if (this.byCustomer.size === 0) {
      this.nextCustomer = 0;
      this.dayIndex = new Map();
      this.dayNames = [];
    }
  }
}
