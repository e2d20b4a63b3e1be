/**
 * @module A certificate authority made fresh for one test run, and server certificates it signs: local mail
 * servers speak real TLS, and the Worker's runtime is told to trust this CA (and nothing the test did not make).
 * Nothing here is ever written to the repository.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import selfsigned from "selfsigned";

export interface ServerCertificate {
  key: string;
  cert: string;
}

export interface TestCa {
  /** The CA certificate (PEM) to trust. */
  cert: string;
  /** A file holding `cert`, for NODE_EXTRA_CA_CERTS / SSL_CERT_FILE. */
  certFile: string;
  /** A certificate for `localhost` (DNS and 127.0.0.1) signed by this CA. */
  localhost: ServerCertificate;
  /** A certificate for `localhost` that no one trusts: self-signed, outside this CA. */
  untrusted: ServerCertificate;
}

const DAY = 24 * 60 * 60 * 1000;
const validity = () => ({ notBeforeDate: new Date(Date.now() - DAY), notAfterDate: new Date(Date.now() + DAY) });
const localhostNames = {
  name: "subjectAltName" as const,
  altNames: [
    { type: 2 as const, value: "localhost" },
    { type: 7 as const, ip: "127.0.0.1" },
  ],
};
const serverExtensions = [
  { name: "basicConstraints" as const, cA: false, critical: true },
  { name: "keyUsage" as const, digitalSignature: true, keyEncipherment: true, critical: true },
  { name: "extKeyUsage" as const, serverAuth: true },
  localhostNames,
];

export async function createTestCa(): Promise<TestCa> {
  const common = { keyType: "ec" as const, algorithm: "sha256" as const, ...validity() };
  const ca = await selfsigned.generate([{ name: "commonName", value: "Dynamic Content test CA" }], {
    ...common,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const localhost = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
    ...common,
    extensions: serverExtensions,
    ca: { key: ca.private, cert: ca.cert },
  });
  const untrusted = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
    ...common,
    extensions: serverExtensions,
  });
  const certFile = join(mkdtempSync(join(tmpdir(), "dc-test-ca-")), "ca.pem");
  writeFileSync(certFile, ca.cert);
  return {
    cert: ca.cert,
    certFile,
    localhost: { key: localhost.private, cert: localhost.cert },
    untrusted: { key: untrusted.private, cert: untrusted.cert },
  };
}
