/**
 * @module A per-isolate memo with a time to live and a byte budget. The hot path remembers what it read from the
 * delivery store for a few seconds; however many customers and URLs an isolate serves, the memo never holds more
 * than its budget (the oldest entries go first), so it cannot push the isolate past its 128 MB.
 */
interface Entry<V> {
  value: V;
  until: number;
  bytes: number;
}

/** What a string costs in memory (JavaScript strings are UTF-16) plus a little for the entry around it. */
export const memoBytes = (...strings: string[]) => 64 + strings.reduce((n, s) => n + 2 * s.length, 0);

export class IsolateMemo<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.remove(key, entry);
    return undefined;
  }

  /** Remembers `value` (about `bytes` in memory) until `now` + the time to live, or `until` if sooner. */
  set(key: string, value: V, bytes: number, now: number, until = Infinity): void {
    this.delete(key);
    // One value may take at most an eighth of the budget, so that one large HTML cannot empty the memo.
    if (bytes > this.maxBytes / 8) return;
    this.entries.set(key, { value, until: Math.min(now + this.ttlMs, until), bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest, entry);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry);
  }

  /** Bytes held now (for tests). */
  get size(): number {
    return this.bytes;
  }

  private remove(key: string, entry: Entry<V>) {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
