/**
 * @module Counting wrappers around every binding of the Env the real code gets: `counted(env, counts)` answers an
 * Env whose bindings add each billed call to `counts` (protocol.ts COUNT_KEYS). Bindings are recognised by their
 * runtime class (duck-typed as a fallback), so a binding added to wrangler.toml is counted without a change here:
 *
 * - D1: every statement's `meta` (rows read and written), through prepare/bind and run/all/first/raw, batch and
 *   exec; `first` runs as `all` (what D1 itself does), and `raw`, whose `meta` the binding drops, runs as `all`
 *   (rows made arrays again) for a statement that writes and for a read-only one whose columns survive as object
 *   keys, else once more as `all` for its meta (its rows counted once).
 * - KV: keys read (get, getWithMetadata), lists, writes (put) and deletes.
 * - Queues: messages sent (send, sendBatch) with their bytes and the write operations they are billed (reads and
 *   deletes are booked where the messages are consumed: `meteredBatch`).
 * - Rate Limiting: `limit()` calls. R2: class A (put, list, multipart uploads), class B (get, head), free (delete).
 * - Durable Objects: each fetch or RPC call on a stub; the objects report their storage rows
 *   (`reportDurableObjectRows`).
 * - Analytics Engine: `writeDataPoint` points.
 * Variables, the assets Fetcher and anything unknown pass through unchanged.
 */
import { noCounts, queueChunks, type Counts } from "./protocol";

/** What the bench sees of a D1 result: its rows and its meta. */
type D1Answer = { results?: unknown[]; meta?: Partial<D1Meta> } | null;

/** The database's size after the last statement that reported one (D1's `size_after`). */
export let lastSizeAfter = 0;

function book(counts: Counts, meta: Partial<D1Meta> | undefined) {
  counts.d1Statements++;
  if (!meta) return;
  counts.d1RowsRead += meta.rows_read ?? 0;
  counts.d1RowsWritten += meta.rows_written ?? 0;
  if (meta.size_after) lastSizeAfter = meta.size_after;
}

/** A statement that writes: its `raw()` runs as `all()` once, rather than twice. */
const writes = (sql: string) => /\b(insert|update|delete|replace|returning)\b/i.test(sql);

/**
 * Read-only statements whose rows as objects keep every column in order (distinct names, none an array index): their
 * `raw()` runs as `all()` once, from the second time on. The first time runs `raw()` for its column names, then
 * `all()` once more for the meta.
 */
const objectsKeepColumns = new Map<string, boolean>();
const keepsColumns = (columns: string[]) =>
  new Set(columns).size === columns.length && !columns.some((c) => /^(0|[1-9]\d*)$/.test(c));

/** The statements of a batch reach D1 unwrapped (D1 reads their private fields): the batch books their metas. */
const unwrapped = new WeakMap<D1PreparedStatement, D1PreparedStatement>();

function countedStatement(s: D1PreparedStatement, counts: Counts): D1PreparedStatement {
  const all = async <T,>() => {
    const result = await s.all<T>();
    counts.d1Calls++;
    book(counts, result.meta);
    return result;
  };
  const wrapped = new Proxy(s, {
    get(target, key) {
      switch (key) {
        case "bind":
          return (...values: unknown[]) => countedStatement(target.bind(...values), counts);
        case "run":
          return async () => {
            const result = await target.run();
            counts.d1Calls++;
            book(counts, result.meta);
            return result;
          };
        case "all":
          return all;
        case "first":
          // D1's own first(): the whole query, then the first row (or its column).
          return async (column?: string) => {
            const row = ((await all<Record<string, unknown>>()).results[0] ?? null) as Record<string, unknown> | null;
            if (row === null || column === undefined) return row;
            if (row[column] === undefined) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
            return row[column];
          };
        case "raw":
          return async (options?: { columnNames?: boolean }) => {
            const sql = (target as unknown as { statement: string }).statement;
            if (writes(sql) || objectsKeepColumns.get(sql)) {
              const { results } = await all<Record<string, unknown>>();
              const rows = results.map((r) => Object.values(r));
              return options?.columnNames ? [Object.keys(results[0] ?? {}), ...rows] : rows;
            }
            const [columns, ...rows] = await target.raw({ columnNames: true });
            objectsKeepColumns.set(sql, keepsColumns(columns as string[]));
            const { meta } = await target.all();
            counts.d1Calls++;
            book(counts, meta);
            return options?.columnNames ? [columns, ...rows] : rows;
          };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  unwrapped.set(wrapped, s);
  return wrapped;
}

function countedD1<T extends D1Database | D1DatabaseSession>(d1: T, counts: Counts): T {
  return new Proxy(d1, {
    get(target, key) {
      switch (key) {
        case "prepare":
          return (sql: string) => countedStatement(target.prepare(sql), counts);
        case "batch":
          return async (statements: D1PreparedStatement[]) => {
            const results = await target.batch(statements.map((s) => unwrapped.get(s) ?? s));
            counts.d1Calls++;
            for (const r of results as D1Answer[]) book(counts, r?.meta);
            return results;
          };
        case "exec":
          return async (sql: string) => {
            const result = await (target as D1Database).exec(sql);
            counts.d1Calls++;
            counts.d1Statements += result.count;
            return result;
          };
        case "withSession":
          return (...args: unknown[]) =>
            countedD1((target as D1Database).withSession(...(args as [string])), counts) as D1DatabaseSession;
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Wraps the methods named in `count`: each call adds to the counts first, then runs. */
function countingMethods<T extends object>(binding: T, count: Record<string, (args: unknown[]) => void>): T {
  return new Proxy(binding, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      const before = typeof key === "string" ? count[key] : undefined;
      if (!before) return value.bind(target);
      return (...args: unknown[]) => {
        before(args);
        return value.apply(target, args);
      };
    },
  });
}

/** Counts a KV read of `key` (one key or a list), and of which kind its keys are (delivery/keys.ts). */
function countKvRead(key: unknown, counts: Counts) {
  const keys = (Array.isArray(key) ? key : [key]) as unknown[];
  counts.kvReads += keys.length;
  for (const k of keys) {
    if (typeof k !== "string") continue;
    if (k.startsWith("s:")) counts.kvStateReads++;
    else if (k.startsWith("u:")) counts.kvUrlReads++;
    else if (k.startsWith("e:")) counts.kvEdgeHostReads++;
  }
}
const jsonBytes = (body: unknown) => new TextEncoder().encode(JSON.stringify(body) ?? "").length;

function countedQueue(queue: Queue, counts: Counts): Queue {
  const sent = (body: unknown) => {
    const bytes = jsonBytes(body);
    counts.queueMessages++;
    counts.queueBytes += bytes;
    counts.queueOps += queueChunks(bytes);
  };
  return countingMethods(queue, {
    send: ([body]) => sent(body),
    sendBatch: ([messages]) => {
      for (const m of messages as Iterable<MessageSendRequest>) sent(m.body);
    },
  });
}

/**
 * A consumed batch whose acknowledgements are booked: each message delivered is read (one operation per 64 KB),
 * and deleted once acknowledged, explicitly or by the handler returning without retrying it.
 */
export async function meteredBatch<Body>(
  batch: MessageBatch<Body>,
  counts: Counts,
  consume: (batch: MessageBatch<Body>) => Promise<void>,
): Promise<void> {
  const chunks = new Map(batch.messages.map((m) => [m.id, queueChunks(jsonBytes(m.body))]));
  for (const n of chunks.values()) counts.queueOps += n;
  const retried = new Set<string>();
  const acked = new Set<string>();
  const wrapped: MessageBatch<Body> = {
    queue: batch.queue,
    metadata: batch.metadata,
    messages: batch.messages.map((m) => ({
      id: m.id,
      timestamp: m.timestamp,
      body: m.body,
      attempts: m.attempts,
      ack: () => (acked.add(m.id), m.ack()),
      retry: (options?: QueueRetryOptions) => (retried.add(m.id), m.retry(options)),
    })),
    ackAll: () => (batch.messages.forEach((m) => acked.add(m.id)), batch.ackAll()),
    retryAll: (options?: QueueRetryOptions) => (
      batch.messages.forEach((m) => retried.add(m.id)),
      batch.retryAll(options)
    ),
  };
  await consume(wrapped);
  for (const [id, n] of chunks) if (!retried.has(id) || acked.has(id)) counts.queueOps += n;
}

function countedR2(bucket: R2Bucket, counts: Counts): R2Bucket {
  const classA = () => void counts.r2ClassA++;
  const upload = (u: R2MultipartUpload) =>
    countingMethods(u, { uploadPart: classA, complete: classA, abort: () => void counts.r2Free++ });
  const wrapped = countingMethods(bucket, {
    put: classA,
    list: classA,
    get: () => void counts.r2ClassB++,
    head: () => void counts.r2ClassB++,
    delete: () => void counts.r2Free++,
  });
  return new Proxy(wrapped, {
    get(target, key) {
      if (key === "createMultipartUpload") {
        return async (...args: Parameters<R2Bucket["createMultipartUpload"]>) => {
          counts.r2ClassA++;
          return upload(await bucket.createMultipartUpload(...args));
        };
      }
      if (key === "resumeMultipartUpload") {
        return (...args: Parameters<R2Bucket["resumeMultipartUpload"]>) =>
          upload(bucket.resumeMultipartUpload(...args));
      }
      return Reflect.get(target, key) as unknown;
    },
  });
}

/** A stub: every call on it (fetch or an RPC method) is one billed request. */
function countedStub(stub: object, counts: Counts): object {
  return new Proxy(stub, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function" || key === "then") return value;
      return (...args: unknown[]) => {
        counts.doRequests++;
        // Reflect.apply: on an RPC stub, `value.apply` would itself be taken for a method of the object.
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

function countedNamespace(namespace: DurableObjectNamespace, counts: Counts): DurableObjectNamespace {
  return new Proxy(namespace, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== "function") return value;
      if (key === "get" || key === "getByName") {
        return (...args: unknown[]) => countedStub((value as (...a: unknown[]) => object).apply(target, args), counts);
      }
      if (key === "jurisdiction") {
        return (...args: unknown[]) =>
          countedNamespace((value as (...a: unknown[]) => DurableObjectNamespace).apply(target, args), counts);
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

/**
 * What Durable Objects spend, counted where they run (the bench's objects count their env into it and report their
 * storage rows): booked as a difference around a stretch of work, to whoever's work it was (simulation.mts `booked`).
 */
export const durableObjectSpend: Counts = noCounts();
/** For a Durable Object of the bench to call after each storage operation (`cursor.rowsRead`, `rowsWritten`). */
export function reportDurableObjectRows(read: number, written: number) {
  durableObjectSpend.doRowsRead += read;
  durableObjectSpend.doRowsWritten += written;
}

/**
 * A Durable Object's storage whose SQL statements report the rows they read and wrote: each cursor is read to its
 * end at once (the reducer's statements are all small or read whole), then handed on as an array's cursor.
 */
export function reportingStorage(ctx: DurableObjectState): DurableObjectState {
  const sql = ctx.storage.sql;
  const exec = (query: string, ...bindings: unknown[]) => {
    const cursor = sql.exec(query, ...bindings);
    const rows = cursor.toArray();
    reportDurableObjectRows(cursor.rowsRead, cursor.rowsWritten);
    return {
      toArray: () => rows,
      one: () => {
        if (rows.length !== 1) throw new Error(`Expected exactly one row from "${query}", got ${rows.length}`);
        return rows[0];
      },
      [Symbol.iterator]: () => rows[Symbol.iterator](),
      rowsRead: cursor.rowsRead,
      rowsWritten: cursor.rowsWritten,
    };
  };
  const sqlProxy = new Proxy(sql, { get: (target, key) => (key === "exec" ? exec : own(target, key)) });
  const storage = new Proxy(ctx.storage, { get: (target, key) => (key === "sql" ? sqlProxy : own(target, key)) });
  return new Proxy(ctx, { get: (target, key) => (key === "storage" ? storage : own(target, key)) });
}

/** A property of a platform object, its methods bound to it (they refuse a proxy as `this`). */
function own(target: object, key: string | symbol): unknown {
  const value = Reflect.get(target, key, target) as unknown;
  return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
}

/** Whether `value`'s class (not an RPC stub's catch-all) has all these methods. */
function hasMethods(value: object, names: string[]): boolean {
  const proto = Object.getPrototypeOf(value) as object | null;
  return proto !== null && names.every((n) => typeof Reflect.get(proto, n) === "function");
}

type Kind = "d1" | "kv" | "queue" | "rateLimit" | "r2" | "durableObjects" | "analyticsEngine" | null;

function kindOf(value: unknown): Kind {
  if (value === null || typeof value !== "object") return null;
  const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "";
  if (name === "Fetcher") return null;
  if (name === "D1Database" || hasMethods(value, ["prepare", "batch", "exec"])) return "d1";
  if (name === "KvNamespace" || hasMethods(value, ["get", "getWithMetadata", "put", "list", "delete"])) return "kv";
  if (name === "WorkerQueue" || hasMethods(value, ["send", "sendBatch"])) return "queue";
  if (name === "R2Bucket" || hasMethods(value, ["head", "get", "put", "createMultipartUpload"])) return "r2";
  if (name === "Ratelimit" || hasMethods(value, ["limit"])) return "rateLimit";
  if (name === "DurableObjectNamespace" || hasMethods(value, ["idFromName", "get"])) return "durableObjects";
  if (name.endsWith("AnalyticsEngineDataset") || hasMethods(value, ["writeDataPoint"])) return "analyticsEngine";
  return null;
}

function countedBinding(value: unknown, counts: Counts): unknown {
  switch (kindOf(value)) {
    case "d1":
      return countedD1(value as D1Database, counts);
    case "kv":
      return countingMethods(value as KVNamespace, {
        get: ([key]) => countKvRead(key, counts),
        getWithMetadata: ([key]) => countKvRead(key, counts),
        list: () => void counts.kvLists++,
        put: () => void counts.kvWrites++,
        delete: () => void counts.kvDeletes++,
      });
    case "queue":
      return countedQueue(value as Queue, counts);
    case "rateLimit":
      return countingMethods(value as RateLimit, { limit: () => void counts.rateLimitCalls++ });
    case "r2":
      return countedR2(value as R2Bucket, counts);
    case "durableObjects":
      return countedNamespace(value as DurableObjectNamespace, counts);
    case "analyticsEngine":
      return countingMethods(value as AnalyticsEngineDataset, { writeDataPoint: () => void counts.aePoints++ });
    default:
      return value;
  }
}

/** The env with every binding counted into `counts`. */
export function counted<E extends object>(env: E, counts: Counts): E {
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, countedBinding(value, counts)])) as E;
}
