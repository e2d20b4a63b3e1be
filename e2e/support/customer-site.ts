/** The customer's own website: a page on a second loopback origin that embeds the snippet. */
import { createServer, type Server } from "node:http";
import { freePort } from "../../scripts/lib.mjs";

export interface CustomerSite {
  origin: string;
  close(): Promise<void>;
}

export async function startCustomerSite(snippet: string): Promise<CustomerSite> {
  const page = `<!doctype html><html><head><title>Customer shop</title>${snippet}</head>
<body><header id="shop-header">Customer shop</header><main>Original page content</main></body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    // "localhost" rather than 127.0.0.1: a different origin from the product's.
    origin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
