/**
 * @module The edge website's sample page of `npm run bench` (issue 43): a local stand-in origin that answers a
 * typical shop page (its own styles, scripts, images, fonts and icon on its host; analytics and a CDN elsewhere), and
 * the count of the same-host subresource URLs left in an HTML page, which a browser fetches from the page's host and
 * so, on an edge website, through the Worker. The bench runs the real edge proxy on the page and counts what its
 * answer still asks of the host: an option that moves the assets elsewhere shows up there.
 */
import { createServer, type Server } from "node:http";

/** The sample page: 25 same-host subresources (3 styles, 2 fonts, 1 icon, 5 scripts, 14 images of which a logo by absolute URL and a srcset of 2), 6 elsewhere. */
const SAMPLE_PAGE = (title: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="/css/base.css"><link rel="stylesheet" href="/css/theme.css?v=12">
<link rel="stylesheet" href="/css/product.css">
<link rel="preload" as="font" href="/fonts/sans.woff2" crossorigin><link rel="preload" as="font" href="/fonts/sans-bold.woff2" crossorigin>
<link rel="icon" href="/favicon.ico"><link rel="canonical" href="/products/">
<script src="/js/runtime.js" defer></script><script src="/js/vendor.js" defer></script><script src="/js/app.js" defer></script>
<script src="https://www.googletagmanager.com/gtag/js?id=G-1" async></script>
<script src="https://cdn.example-cdn.net/widget.js" async></script>
</head><body>
<header><a href="/"><img src="https://HOST/img/logo.svg" alt="logo"></a><nav><a href="/shoes/">Shoes</a><a href="/bags/">Bags</a></nav></header>
<main><h1>${title}</h1>
${Array.from({ length: 10 }, (_, i) => `<img src="/img/product-${i}.jpg" alt="product ${i}" loading="lazy">`).join("\n")}
<img src="/img/hero.jpg" srcset="/img/hero-640.jpg 640w, /img/hero-1280.jpg 1280w" alt="hero">
${Array.from({ length: 4 }, (_, i) => `<img src="https://images.example-cdn.net/p/${i}.jpg" alt="">`).join("\n")}
</main>
<script src="/js/cart.js" defer></script><script src="/js/reviews.js" defer></script>
</body></html>`;

/** A local origin answering the sample page for any path (HOST replaced by the host asked for). */
export async function startStandInOrigin(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const host = req.headers.host ?? "localhost";
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(SAMPLE_PAGE("Products").replaceAll("HOST", host));
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the stand-in origin has no port");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** The sample page as the origin answers it for `host`. */
export const samplePage = (host: string) => SAMPLE_PAGE("Products").replaceAll("HOST", host);
