/**
 * The started product (`npm start`, wrangler dev) sends its mail to a real SMTP server over STARTTLS, trusting
 * the server's certificate only because this run's CA was handed to it, and logs in only over TLS.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startMailServer, type MailServer } from "./support/mail-server";
import { api, useMailServer } from "./support/product";

let mail: MailServer;
beforeAll(async () => {
  mail = await startMailServer({ tls: { certificate: inject("mailCertificate") } });
  await useMailServer(mail);
});
afterAll(() => mail.close());

describe("the product's SMTP transport", () => {
  it("delivers the verification mail over STARTTLS, logging in after the upgrade", async () => {
    await api("/api/register", { method: "POST", body: JSON.stringify({ email: "tls@shop.test" }) });

    const message = await mail.waitFor("tls@shop.test");
    expect(message).toMatchObject({ tls: true, user: "mailer", subject: "Verify your email for Dynamic Content" });
    expect(mail.logins).toEqual([{ user: "mailer", tls: true }]);
  });
});
