/**
 * A customer's single-page shop built with React Router in history mode, bundled as a customer would ship it
 * (esbuild, production React), on its own loopback origin with the snippet in <head>. Its data router keeps
 * scroll positions with <ScrollRestoration> and, like every history router, writes its own state into the
 * current entry with replaceState when it starts.
 */
import { buildSync } from "esbuild";
import { createServer, type Server } from "node:http";
import { freePort, root } from "../../scripts/dev/lib.mjs";

const APP = `
import { createRoot } from "react-dom/client";
import { createBrowserRouter, Link, Outlet, RouterProvider, ScrollRestoration } from "react-router-dom";

function Layout() {
  return (
    <div>
      <nav>
        <Link to="/">Home</Link> <Link to="/offer">Offer</Link> <Link to="/about">About</Link>
      </nav>
      <Outlet />
      <ScrollRestoration />
    </div>
  );
}

const page = (title) => () => <main style={{ height: 1500 }}><h1>{title}</h1></main>;

const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: "/", Component: page("Home") },
      { path: "/offer", Component: page("Offer") },
      { path: "/about", Component: page("About") },
    ],
  },
]);

createRoot(document.getElementById("root")).render(<RouterProvider router={router} />);
`;

function bundleApp(): string {
  const { outputFiles } = buildSync({
    stdin: { contents: APP, loader: "jsx", resolveDir: root },
    bundle: true,
    format: "iife",
    minify: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  });
  return outputFiles[0]!.text;
}

export interface RouterSite {
  origin: string;
  close(): Promise<void>;
}

export async function startRouterSite(snippet: string): Promise<RouterSite> {
  const app = bundleApp();
  const page = `<!doctype html><html><head><title>Router shop</title>${snippet}</head>
<body><div id="root"></div><script src="/app.js"></script></body></html>`;
  const server: Server = createServer((req, res) => {
    const isApp = req.url === "/app.js";
    res.writeHead(200, { "Content-Type": isApp ? "text/javascript" : "text/html; charset=utf-8" });
    // Every other path is the app's page (history-mode routing), as a single-page shop's server answers.
    res.end(isApp ? app : page);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
