import { env } from "cloudflare:workers";

/** Every key of the DELIVERY namespace with its value, metadata and expiry: `restore()` writes them again. */
export async function copyKv() {
  const entries: { name: string; value: ArrayBuffer; metadata: unknown; expiration?: number }[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.DELIVERY.list({ cursor });
    for (const key of page.keys) {
      const { value, metadata } = await env.DELIVERY.getWithMetadata(key.name, "arrayBuffer");
      if (value) entries.push({ name: key.name, value, metadata, expiration: key.expiration });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return {
    restore: () =>
      Promise.all(
        entries.map((e) =>
          env.DELIVERY.put(e.name, e.value, {
            ...(e.metadata === null ? {} : { metadata: e.metadata }),
            ...(e.expiration ? { expiration: e.expiration } : {}),
          }),
        ),
      ),
  };
}
