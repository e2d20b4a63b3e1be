/**
 * @module Production's D1 and KV limits (developers.cloudflare.com/d1/platform/limits and
 * /kv/platform/limits), and the record of every refusal. Local D1 is plain SQLite with far larger limits, so
 * without these checks a query that works here could fail in production.
 */
import { formatNumber, utf8Length } from "#contract/input-caps";

export const D1_LIMITS = {
  boundParameters: 100,
  statementBytes: 100_000,
  /** One string or BLOB, and one table row. */
  valueBytes: 2_000_000,
  rowBytes: 2_000_000,
  likePatternBytes: 50,
} as const;

export const KV_LIMITS = {
  keyBytes: 512,
  valueBytes: 25 * 1024 * 1024,
  metadataBytes: 1024,
} as const;

/** Marks a wrapped binding, so that wrapping twice is harmless and a test can tell a wrapped one. */
export const LIMITED = Symbol.for("dynamic-content.platform-limited");

export class PlatformLimitError extends Error {
  override name = "PlatformLimitError";
}

const refusals: PlatformLimitError[] = [];

/** Calls the wrappers checked, so that a test can prove a code path goes through them. */
export const checkedCalls = { d1: 0, kv: 0 };

/** Records and throws: the record lets the test fail even when the code under test swallows the error. */
export function refuse(message: string): never {
  const error = new PlatformLimitError(`${message} (production would refuse this; see docs/scaling.md)`);
  refusals.push(error);
  throw error;
}

/** The refusals since the last call; a test that provokes one on purpose takes it, so it does not fail. */
export function takeRefusals(): PlatformLimitError[] {
  return refusals.splice(0);
}

/** Bytes of a value bound to or read from D1 (strings in UTF-8; blobs as buffers or D1's arrays of bytes). */
export function valueBytes(v: unknown): number {
  if (typeof v === "string") return utf8Length(v);
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return v.byteLength;
  if (Array.isArray(v)) return v.length;
  if (typeof v === "number" || typeof v === "bigint") return 8;
  if (typeof v === "boolean") return 1;
  return 0;
}

export const formatBytes = (n: number) => `${formatNumber(n)} bytes`;
