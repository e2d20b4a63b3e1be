/**
 * What every end-to-end file needs: a browser, and an SMTP server (STARTTLS, AUTH after TLS) the product's mail is
 * pointed at.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launchBrowser } from "./browser";
import { startMailServer, type MailServer } from "./mail-server";
import { useMailServer } from "./product";

export interface Session {
  browser: Browser;
  mail: MailServer;
  /** Closed after the file's tests, with the browser and the mail server. */
  closeLater(close: () => Promise<unknown>): void;
}

export function useBrowserAndMail(): Session {
  const closers: (() => Promise<unknown>)[] = [];
  const session = {
    closeLater: (close: () => Promise<unknown>) => void closers.push(close),
  } as Session;
  beforeAll(async () => {
    session.mail = await startMailServer({ tls: { certificate: inject("mailCertificate") } });
    session.browser = await launchBrowser();
    await useMailServer(session.mail);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await session.browser?.close();
    await session.mail?.close();
  });
  return session;
}
