/**
 * @module The Worker tests' stand-ins for outside mail services, started in Node before the tests (vitest
 * globalSetup): SMTP servers speaking real TLS with certificates of a CA made for this run, a MailChannels Email
 * API stand-in, and a mailbox endpoint from which the tests, inside workerd, read what arrived.
 *
 * workerd is told to trust the CA through SSL_CERT_FILE (its trust store: the public roots plus this CA), which
 * the runtime started after this setup inherits. NODE_EXTRA_CA_CERTS, the documented way for `wrangler dev`
 * (used by the e2e tests), is read by Miniflare when it is loaded, before any globalSetup runs.
 */
import { rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { rootCertificates } from "node:tls";
import type { TestProject } from "vitest/node";
import { startMailServer, type MailServer } from "../../../e2e/support/mail-server";
import { createTestCa } from "../../../e2e/support/test-ca";
import type { Received, ReceivedMailChannelsRequest, SmtpStandin } from "../mail-standins";

const MAILCHANNELS_KEY = "test-mailchannels-key";
const REFUSED_PREFIX = "refused";

export async function setup(project: TestProject) {
  const ca = await createTestCa();
  const trustStore = join(dirname(ca.certFile), "trust-store.pem");
  writeFileSync(trustStore, [...rootCertificates, ca.cert].join("\n"));
  const previousTrustStore = process.env.SSL_CERT_FILE;
  process.env.SSL_CERT_FILE = trustStore;

  const credentials = { user: "mailer", pass: "mail-pass" };
  const refuseRecipient = (address: string) => address.startsWith(REFUSED_PREFIX);
  const smtp: Record<SmtpStandin, MailServer> = {
    starttls: await startMailServer({ tls: { certificate: ca.localhost }, credentials, refuseRecipient }),
    implicitTls: await startMailServer({ tls: { certificate: ca.localhost, implicit: true }, credentials }),
    plaintext: await startMailServer({ tls: false, credentials }),
    untrustedCertificate: await startMailServer({ tls: { certificate: ca.untrusted }, credentials }),
  };
  const mailChannels: ReceivedMailChannelsRequest[] = [];

  const http = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500).end(String(err));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (req.method === "GET" && req.url === "/received") {
      const received: Received = {
        smtp: Object.fromEntries(
          Object.entries(smtp).map(([name, server]) => [
            name,
            {
              messages: server.messages.map((m) => ({
                from: m.from?.value[0]?.address ?? "",
                to: [m.to].flat()[0]?.value[0]?.address ?? "",
                subject: m.subject ?? "",
                text: m.text ?? "",
                tls: m.tls,
                user: m.user,
              })),
              logins: server.logins,
            },
          ]),
        ) as Received["smtp"],
        mailChannels,
      };
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received));
    }
    if (req.method !== "POST") return void res.writeHead(405).end();
    let body = "";
    for await (const chunk of req) body += chunk;
    const apiKey = req.headers["x-api-key"];
    mailChannels.push({
      path: req.url ?? "",
      apiKey: typeof apiKey === "string" ? apiKey : undefined,
      contentType: req.headers["content-type"],
      body: JSON.parse(body),
    });
    const forced = /^\/answer\/(\d{3})$/.exec(req.url ?? "");
    if (forced) return void res.writeHead(Number(forced[1])).end(`{"errors":["answered ${forced[1]} on request"]}`);
    if (req.url !== "/tx/v1/send") return void res.writeHead(404).end();
    if (apiKey !== MAILCHANNELS_KEY) return void res.writeHead(401).end('{"errors":["invalid API key"]}');
    res.writeHead(202).end();
  }
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  project.provide("mailStandins", {
    smtp: Object.fromEntries(Object.entries(smtp).map(([name, server]) => [name, server.port])) as Record<
      SmtpStandin,
      number
    >,
    credentials,
    refusedRecipientPrefix: REFUSED_PREFIX,
    mailChannels: { url: `${base}/tx/v1/send`, base, apiKey: MAILCHANNELS_KEY },
    mailboxUrl: `${base}/received`,
  });

  return async () => {
    await Promise.all(Object.values(smtp).map((server) => server.close()));
    await new Promise((resolve) => http.close(resolve));
    if (previousTrustStore === undefined) delete process.env.SSL_CERT_FILE;
    else process.env.SSL_CERT_FILE = previousTrustStore;
    rmSync(dirname(ca.certFile), { recursive: true, force: true });
  };
}
