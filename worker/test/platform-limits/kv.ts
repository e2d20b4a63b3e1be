/**
 * @module A KV binding that refuses what production KV refuses (see limits.ts): keys over 512 bytes on every
 * call that names a key (a `list()` prefix included), values over 25 MiB and metadata over 1,024 bytes on `put`.
 */
import { KV_LIMITS, LIMITED, checkedCalls, formatBytes, refuse } from "./limits";
import { utf8Length } from "#contract/input-caps";

type PutValue = string | ArrayBuffer | ArrayBufferView | ReadableStream;

function checkKey(key: string) {
  checkedCalls.kv++;
  const bytes = utf8Length(key);
  if (bytes > KV_LIMITS.keyBytes) {
    refuse(`KV: a key of ${formatBytes(bytes)}; the limit is ${formatBytes(KV_LIMITS.keyBytes)}: ${key.slice(0, 80)}…`);
  }
}

/** The value as bytes (a stream is read to the end so that it can be measured) and its size. */
async function measure(value: PutValue): Promise<{ value: PutValue; bytes: number }> {
  if (typeof value === "string") return { value, bytes: utf8Length(value) };
  if (value instanceof ReadableStream) {
    const bytes = new Uint8Array(await new Response(value).arrayBuffer());
    return { value: bytes, bytes: bytes.byteLength };
  }
  return { value, bytes: value.byteLength };
}

/** Wraps a KV binding; wrapping an already limited one returns it unchanged. */
export function limitKv(inner: KVNamespace): KVNamespace {
  if (LIMITED in inner) return inner;
  const keysOf = (key: string | string[]) => (Array.isArray(key) ? key : [key]);
  return {
    [LIMITED]: true,
    async get(key: string | string[], options?: unknown) {
      keysOf(key).forEach(checkKey);
      return inner.get(key as string, options as KVNamespaceGetOptions<"text">);
    },
    async getWithMetadata(key: string | string[], options?: unknown) {
      keysOf(key).forEach(checkKey);
      return inner.getWithMetadata(key as string, options as KVNamespaceGetOptions<"text">);
    },
    async put(key: string, value: PutValue, options?: KVNamespacePutOptions) {
      checkKey(key);
      const measured = await measure(value);
      if (measured.bytes > KV_LIMITS.valueBytes) {
        refuse(
          `KV: a value of ${formatBytes(measured.bytes)} for ${key}; the limit is ${formatBytes(KV_LIMITS.valueBytes)} (25 MiB)`,
        );
      }
      if (options?.metadata !== undefined && options.metadata !== null) {
        const bytes = utf8Length(JSON.stringify(options.metadata));
        if (bytes > KV_LIMITS.metadataBytes) {
          refuse(
            `KV: metadata of ${formatBytes(bytes)} for ${key}; the limit is ${formatBytes(KV_LIMITS.metadataBytes)}`,
          );
        }
      }
      return inner.put(key, measured.value, options);
    },
    async delete(key: string) {
      checkKey(key);
      return inner.delete(key);
    },
    async list(options?: KVNamespaceListOptions) {
      if (options?.prefix) checkKey(options.prefix);
      return inner.list(options);
    },
  } as unknown as KVNamespace;
}
