/** The customer's own website: a page on a second loopback origin that embeds the snippet. */
import { createServer, type Server } from "node:http";
import { freePort } from "../../scripts/dev/lib.mjs";

export interface CustomerSite {
  /** `http://localhost:<port>`: a different origin from the product's. */
  origin: string;
  port: number;
  /** The HTML every path answers, byte for byte. */
  page: string;
  close(): Promise<void>;
}

const DEFAULT_BODY = '<header id="shop-header">Customer shop</header><main>Original page content</main>';

export async function startCustomerSite(snippet: string, body = DEFAULT_BODY): Promise<CustomerSite> {
  const page = `<!doctype html><html><head><title>Customer shop</title>${snippet}</head>
<body>${body}</body></html>`;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${port}`,
    port,
    page,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
