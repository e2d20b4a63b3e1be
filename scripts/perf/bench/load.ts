/**
 * @module A closed-loop HTTP/1.1 load generator: `connections` keep-alive sockets, each sending its next request
 * when the previous answer has been read, for a fixed time. When the time is up no new request starts and every
 * request in flight is awaited, so the count of answers is exact (the bench compares it with the analytics rows
 * that reach D1).
 *
 * It speaks HTTP over raw sockets rather than through node:http: on a small machine the client shares the CPU
 * with workerd, and every microsecond the client spends per request flattens the differences being measured.
 */
import { connect, type Socket } from "node:net";
import { BROWSER_REFERER, BROWSER_USER_AGENT } from "./protocol";

export interface LoadOptions {
  /** Origin of the server, e.g. http://127.0.0.1:8787. */
  origin: string;
  /** The path (with query) of the i-th request. */
  path: (i: number) => string;
  connections: number;
  durationMs: number;
  /** A pause after each answer, for a trickle instead of a flood (default none). */
  pauseMs?: number;
}

/** One run, or several runs of the same route added up. */
export interface LoadResult {
  /** Answers with a 2xx status. */
  ok: number;
  /** Answers with any other status, by status. */
  failedByStatus: Record<number, number>;
  /** Requests that failed without an answer (socket errors). */
  errors: number;
  firstError?: string;
  /** All answers. */
  answered: number;
  elapsedMs: number;
  /** Body bytes of all answers. */
  bytes: number;
  /** Latency of every answer, in milliseconds. */
  latencies: Float64Array;
}

export interface Summary {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

interface Answer {
  status: number;
  bodyBytes: number;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const CHUNKED_END = Buffer.from("0\r\n\r\n");

/** Parses one complete answer from `buf`, or answers null while it is incomplete. */
function parseAnswer(buf: Buffer): Answer | null {
  const headerEnd = buf.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = buf.toString("latin1", 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headerEnd + 4;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return { status, bodyBytes: 0 };
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const bodyBytes = Number(length[1]);
    return buf.length - bodyStart >= bodyBytes ? { status, bodyBytes } : null;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    // Walk the chunks: complete once the zero-length chunk and the final CRLF have arrived.
    let at = bodyStart;
    let bodyBytes = 0;
    for (;;) {
      const lineEnd = buf.indexOf("\r\n", at, "latin1");
      if (lineEnd < 0) return null;
      const size = parseInt(buf.toString("latin1", at, lineEnd), 16);
      if (size === 0)
        return buf.indexOf(CHUNKED_END, at) === at && buf.length >= at + CHUNKED_END.length
          ? { status, bodyBytes }
          : null;
      at = lineEnd + 2 + size + 2;
      if (buf.length < at) return null;
      bodyBytes += size;
    }
  }
  throw new Error(`an answer with neither Content-Length nor chunked encoding (status ${status})`);
}

/** One keep-alive connection that carries one request at a time. */
class Connection {
  private socket: Socket | null = null;
  private buf: Buffer = Buffer.alloc(0);
  private pending: { resolve: (a: Answer) => void; reject: (e: Error) => void } | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private open(): Promise<Socket> {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    this.socket = socket;
    // Events of a socket that has since been replaced concern no request of ours.
    socket.on("data", (chunk: Buffer) => this.socket === socket && this.onData(chunk));
    socket.on("error", (err) => this.socket === socket && this.fail(err));
    socket.on("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.fail(new Error("connection closed by the server"));
    });
    return new Promise((resolve, reject) => {
      socket.once("connect", () => resolve(socket));
      socket.once("error", reject);
    });
  }

  private onData(chunk: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    if (!this.pending) return;
    let answer: Answer | null;
    try {
      answer = parseAnswer(this.buf);
    } catch (err) {
      this.socket?.destroy();
      return this.fail(err as Error);
    }
    if (!answer) return;
    this.buf = Buffer.alloc(0);
    const { resolve } = this.pending;
    this.pending = null;
    resolve(answer);
  }

  private fail(err: Error) {
    const pending = this.pending;
    this.pending = null;
    this.buf = Buffer.alloc(0);
    pending?.reject(err);
  }

  async get(path: string, headers: string): Promise<Answer> {
    const socket = this.socket ?? (await this.open());
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      socket.write(`GET ${path} HTTP/1.1\r\n${headers}\r\n`);
    });
  }

  close() {
    const socket = this.socket;
    this.socket = null;
    this.fail(new Error("connection closed"));
    socket?.destroy();
  }
}

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Adds runs of the same route up: counts and time are summed, latencies pooled. */
export function combine(runs: readonly LoadResult[]): LoadResult {
  const failedByStatus: Record<number, number> = {};
  for (const r of runs) {
    for (const [status, n] of Object.entries(r.failedByStatus))
      failedByStatus[+status] = (failedByStatus[+status] ?? 0) + n;
  }
  const latencies = new Float64Array(runs.reduce((n, r) => n + r.latencies.length, 0));
  let at = 0;
  for (const r of runs) {
    latencies.set(r.latencies, at);
    at += r.latencies.length;
  }
  const sum = (f: (r: LoadResult) => number) => runs.reduce((n, r) => n + f(r), 0);
  return {
    ok: sum((r) => r.ok),
    failedByStatus,
    errors: sum((r) => r.errors),
    firstError: runs.find((r) => r.firstError)?.firstError,
    answered: sum((r) => r.answered),
    elapsedMs: sum((r) => r.elapsedMs),
    bytes: sum((r) => r.bytes),
    latencies,
  };
}

export function summarize(result: LoadResult): Summary {
  const sorted = Float64Array.from(result.latencies).sort();
  return {
    requestsPerSecond: (result.answered / result.elapsedMs) * 1000,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
}

/**
 * Requests come from 100,000 visitors in turn (`CF-Connecting-IP`), as a site's traffic does, so that the content
 * route's per-visitor budget (wrangler.toml CONTENT_VISITOR_LIMITER) is measured as it works, not exhausted.
 */
const VISITORS = 100_000;
function visitorHeader(n: number): string {
  const v = n % VISITORS;
  return `CF-Connecting-IP: 10.${(v >> 16) & 255}.${(v >> 8) & 255}.${v & 255}\r\n`;
}

export async function runLoad({
  origin,
  path,
  connections,
  durationMs,
  pauseMs = 0,
}: LoadOptions): Promise<LoadResult> {
  const { hostname, port, host } = new URL(origin);
  // What a browser sends, so that the analytics events (and their bytes in D1 and R2) are as large as real ones.
  const headers = `Host: ${host}\r\nUser-Agent: ${BROWSER_USER_AGENT}\r\nReferer: ${BROWSER_REFERER}\r\n`;
  const conns = Array.from({ length: connections }, () => new Connection(hostname, Number(port) || 80));
  let latencies = new Float64Array(1 << 16);
  let answered = 0;
  let next = 0;
  let ok = 0;
  let bytes = 0;
  let errors = 0;
  let firstError: string | undefined;
  const failedByStatus: Record<number, number> = {};

  const start = performance.now();
  const end = start + durationMs;
  const loop = async (conn: Connection) => {
    while (performance.now() < end) {
      const n = next++;
      const p = path(n);
      const t0 = performance.now();
      try {
        const answer = await conn.get(p, headers + visitorHeader(n));
        const ms = performance.now() - t0;
        if (answered === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[answered++] = ms;
        bytes += answer.bodyBytes;
        if (answer.status >= 200 && answer.status < 300) ok++;
        else failedByStatus[answer.status] = (failedByStatus[answer.status] ?? 0) + 1;
      } catch (err) {
        errors++;
        firstError ??= String(err);
        conn.close();
      }
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  await Promise.all(conns.map(loop));
  const elapsedMs = performance.now() - start;
  for (const conn of conns) conn.close();

  return {
    ok,
    failedByStatus,
    errors,
    firstError,
    answered,
    elapsedMs,
    bytes,
    latencies: latencies.slice(0, answered),
  };
}
