import { describe, expect, it } from "vitest";
import { countSameHostSubresources, fetchesSubresource, PageUrls } from "./edge-subresources";

const PAGE = "https://www.shop.example/shoes/red?size=9";
const CDN = "https://cdn.shop.example";
const urlsOf = (page = PAGE) => new PageUrls(new URL(page));

describe("the website's own URLs moved to the asset origin", () => {
  it.each([
    ["a relative path", "img/a.png", `${CDN}/shoes/img/a.png`],
    ["an absolute path", "/img/a.png?v=2#x", `${CDN}/img/a.png?v=2#x`],
    ["an absolute URL on the page's host", "https://www.shop.example/a.css", `${CDN}/a.css`],
    ["an absolute URL on the website's www twin", "https://shop.example/a.css", `${CDN}/a.css`],
    ["a protocol-relative URL", "//shop.example/a.js", `${CDN}/a.js`],
    ["plain http on the website's host", "http://shop.example/a.js", `${CDN}/a.js`],
    ["a path that looks like a host, kept as the path", "/.//evil.example/a.js", `${CDN}//evil.example/a.js`],
  ])("%s", (_, value, moved) => {
    expect(urlsOf().movedTo(CDN, "src", value)).toBe(moved);
  });

  it.each([
    ["another host", "https://images.other.example/a.png"],
    ["a subdomain of the website", "https://static.shop.example/a.png"],
    ["the website's host at another port", "https://shop.example:8443/a.png"],
    ["a data: URL", "data:image/png;base64,AAAA"],
    ["a blob: URL", "blob:https://shop.example/1234"],
    ["an empty value", "  "],
    ["a backslash path, which browsers read as another host", "/\\evil.example/a.png"],
  ])("leaves %s alone", (_, value) => {
    expect(urlsOf().movedTo(CDN, "src", value)).toBeNull();
  });

  it("moves each own candidate of a srcset and keeps its descriptor, other hosts' candidates and commas in URLs", () => {
    const value = "/a.jpg 1x, https://img.other.example/b,w_200.jpg 2x,/c.jpg 640w,";
    expect(urlsOf().movedTo(CDN, "srcset", value)).toBe(
      `${CDN}/a.jpg 1x, https://img.other.example/b,w_200.jpg 2x, ${CDN}/c.jpg 640w`,
    );
    expect(urlsOf().movedTo(CDN, "srcset", "https://img.other.example/b.jpg 2x")).toBeNull();
  });

  it("resolves against the first <base href> only", () => {
    const urls = urlsOf();
    urls.setBase("https://cdn.other.example/assets/");
    urls.setBase("/ignored/");
    expect(urls.movedTo(CDN, "src", "a.png")).toBeNull();
    expect(urls.movedTo(CDN, "src", "https://shop.example/a.png")).toBe(`${CDN}/a.png`);
  });
});

describe("which elements fetch a subresource from any host", () => {
  const attributes =
    (values: Record<string, string>) =>
    (name: string): string | null =>
      values[name] ?? null;

  it.each([
    ["link", { rel: "stylesheet", href: "/a.css" }, true],
    ["link", { rel: "Shortcut Icon", href: "/f.ico" }, true],
    ["link", { rel: "preload", href: "/f.woff2" }, true],
    ["link", { rel: "modulepreload", href: "/m.js" }, true],
    ["link", { rel: "canonical", href: "/" }, false],
    ["link", { rel: "alternate", href: "/de" }, false],
    ["a", { href: "/next" }, false],
    ["form", { action: "/buy" }, false],
    ["iframe", { src: "/frame" }, false],
    ["script", { src: "/a.js", integrity: "sha384-x" }, false],
    ["script", { src: "/a.js", integrity: "sha384-x", crossorigin: "anonymous" }, true],
  ] as const)("<%s %o>: %s", (element, values, fetches) => {
    expect(fetchesSubresource(element, attributes(values))).toBe(fetches);
  });
});

describe("countSameHostSubresources", () => {
  const page = `<!doctype html><html><head>
    <link rel="stylesheet" href="/site.css"><link rel=icon href='/favicon.ico'>
    <link rel="canonical" href="https://shop.example/shoes">
    <link rel="stylesheet" href="https://fonts.other.example/f.css">
    <script src="/app.js"></script><script>document.write('<img src="/not-markup.png">')</script>
    <!-- <img src="/commented.png"> -->
  </head><body>
    <a href="/next"><img src="/a.png" srcset="/a.png 1x, /a@2x.png 2x"></a>
    <img src="/a.png"><img src="https://img.other.example/b.png">
    <picture><source srcset="/c.webp" type="image/webp"><img src="/c.jpg"></picture>
    <video src="/v.mp4" poster="/v.jpg"></video><audio src="https://media.other.example/s.mp3"></audio>
    <iframe src="/frame"></iframe><form action="/buy"></form>
  </body></html>`;

  it("counts each distinct own URL an element fetches, and nothing else", () => {
    // site.css, favicon.ico, app.js, a.png (its srcset's first: also a.png), c.webp, c.jpg, v.mp4, v.jpg
    expect(countSameHostSubresources(page, PAGE)).toBe(8);
  });

  it("counts none once they are on the asset origin", () => {
    const moved = page.replaceAll('="/', `="${CDN}/`).replaceAll("='/", `='${CDN}/`).replaceAll(", /", `, ${CDN}/`);
    expect(countSameHostSubresources(moved, PAGE)).toBe(0);
  });
});
