/** @module gzip in the Workers runtime (CompressionStream), for the raw events kept in R2 and in D1. */

export async function gzip(text: string): Promise<Uint8Array> {
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(compressed).arrayBuffer());
}

export async function gunzip(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const decompressed = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(decompressed).text();
}
