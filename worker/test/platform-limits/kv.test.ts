import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectRefused } from "./expect-refused";

const MIB = 1024 * 1024;

describe("KV with production's limits", () => {
  it("takes a key of 512 bytes and refuses one of 513 on put, get, getWithMetadata, delete and a list prefix", async () => {
    const key = "k".repeat(512);
    await env.DELIVERY.put(key, "v");
    expect(await env.DELIVERY.get(key)).toBe("v");
    const long = `${"ü".repeat(256)}k`; // 257 characters, 513 bytes
    const message = "KV: a key of 513 bytes; the limit is 512 bytes";
    await expectRefused(() => env.DELIVERY.put(long, "v"), message);
    await expectRefused(() => env.DELIVERY.get(long), message);
    await expectRefused(() => env.DELIVERY.getWithMetadata(long), message);
    await expectRefused(() => env.DELIVERY.delete(long), message);
    await expectRefused(() => env.DELIVERY.list({ prefix: long }), message);
  });

  it("stores a value of 25 MiB and refuses one byte more", async () => {
    await env.DELIVERY.put("big", new Uint8Array(25 * MIB));
    expect((await env.DELIVERY.get("big", "arrayBuffer"))?.byteLength).toBe(25 * MIB);
    await expectRefused(
      () => env.DELIVERY.put("bigger", new Uint8Array(25 * MIB + 1)),
      "KV: a value of 26,214,401 bytes for bigger; the limit is 26,214,400 bytes (25 MiB)",
    );
    expect(await env.DELIVERY.get("bigger")).toBeNull();
  });

  it("measures strings in UTF-8 bytes and streams by reading them", async () => {
    await expectRefused(
      () => env.DELIVERY.put("text", "€".repeat((25 * MIB) / 3 + 1)),
      "KV: a value of 26,214,402 bytes",
    );
    const stream = new Blob([new Uint8Array(25 * MIB), new Uint8Array(1)]).stream();
    await expectRefused(() => env.DELIVERY.put("stream", stream), "KV: a value of 26,214,401 bytes");
    await env.DELIVERY.put("small-stream", new Blob(["hello"]).stream());
    expect(await env.DELIVERY.get("small-stream")).toBe("hello");
  });

  it("refuses metadata over 1,024 bytes", async () => {
    await env.DELIVERY.put("m", "v", { metadata: { note: "x".repeat(1_013) } }); // {"note":"…"} = 1,024 bytes
    await expectRefused(
      () => env.DELIVERY.put("m", "v", { metadata: { note: "x".repeat(1_014) } }),
      "KV: metadata of 1,025 bytes for m; the limit is 1,024 bytes",
    );
  });
});
