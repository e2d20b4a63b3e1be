/**
 * A DNS-over-HTTPS resolver for the end-to-end run (JSON form, as Cloudflare's `application/dns-json` answers),
 * which the product is started with as DNS_RESOLVER_URL. Tests publish a claim's TXT record with
 * `PUT /records?name=<name>` (the body: the record's text), as a customer would at their DNS provider.
 */
import { createServer, type Server } from "node:http";
import { freePort } from "../../scripts/dev/lib.mjs";

export interface DnsStandIn {
  /** The resolver's address, for DNS_RESOLVER_URL. */
  url: string;
  /** Where tests publish records. */
  recordsUrl: string;
  close(): Promise<void>;
}

const TXT = 16;

export async function startDnsStandIn(): Promise<DnsStandIn> {
  const records = new Map<string, string[]>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://dns.test");
    const name = (url.searchParams.get("name") ?? "").toLowerCase().replace(/\.$/, "");
    if (req.method === "PUT" && url.pathname === "/records") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        records.set(name, [...(records.get(name) ?? []), body]);
        res.writeHead(204).end();
      });
      return;
    }
    if (req.method !== "GET" || url.pathname !== "/dns-query") return void res.writeHead(404).end();
    const texts = records.get(name) ?? [];
    const answer = texts.map((text) => ({ name, type: TXT, TTL: 300, data: JSON.stringify(text) }));
    res.writeHead(200, { "Content-Type": "application/dns-json" });
    res.end(JSON.stringify({ Status: texts.length > 0 ? 0 : 3, Question: [{ name, type: TXT }], Answer: answer }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}/dns-query`,
    recordsUrl: `http://127.0.0.1:${port}/records`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
