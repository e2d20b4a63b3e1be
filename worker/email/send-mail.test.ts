import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import type { Env } from "../env";
import { ApiError } from "../http/errors";
import { secretKeys } from "../lib/crypto";
import { saveSmtpSettings } from "../models/smtp-config";
import { db, testEnv } from "../test/helpers";
import { mailStandins, received } from "../test/mail-standins";
import type { MailMessage } from "./message";
import { sendMail } from "./send-mail";

const message: MailMessage = {
  to: "someone@example.com",
  subject: "Your Dynamic Content API key",
  text: "This is your API key:\n\ndc_secret-key-123\n\nhttps://dc.test/verify-email?token=tok-456",
};
const BODY = /dc_secret-key-123|tok-456|This is your API key/;

let logs: MockInstance<typeof console.log>;
let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  logs = vi.spyOn(console, "log").mockImplementation(() => undefined);
  errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  logs.mockRestore();
  errors.mockRestore();
});
const printed = (spy: MockInstance<(...args: unknown[]) => void>) => spy.mock.calls.map((a) => a.join(" ")).join("\n");

describe("the console transport (no SMTP configuration, no MailChannels key)", () => {
  it("prints the whole mail, links and codes, in development", async () => {
    await sendMail(testEnv({ ENVIRONMENT: "development" }), db(), message);

    expect(printed(logs)).toBe(
      "[mail] from no-reply@dynamic-content.local to someone@example.com\n" +
        "[mail] subject: Your Dynamic Content API key\n" +
        message.text,
    );
  });

  it.each<[string, Partial<Env>]>([
    ["production", { ENVIRONMENT: "production" }],
    ["an unset ENVIRONMENT (counts as production)", { ENVIRONMENT: undefined }],
  ])("refuses with 503 in %s and logs the cause without the body", async (_, overrides) => {
    const failure = await sendMail(testEnv(overrides), db(), message).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 503,
      message: "Email is not configured. Please contact the administrator.",
    });
    expect(printed(errors)).toMatch(/"Your Dynamic Content API key" was not sent: email is not configured/);
    expect(printed(errors)).not.toMatch(BODY);
    expect(logs).not.toHaveBeenCalled();
  });

  it("prints only recipient and subject in production with MAIL_CONSOLE_IN_PRODUCTION=true", async () => {
    await sendMail(testEnv({ ENVIRONMENT: "production", MAIL_CONSOLE_IN_PRODUCTION: "true" }), db(), message);

    expect(printed(logs)).toBe(
      "[mail] to someone@example.com\n[mail] subject: Your Dynamic Content API key\n[mail] (body not printed in production)",
    );
    expect(printed(logs)).not.toMatch(BODY);
  });
});

describe("choosing the transport", () => {
  it("uses a stored SMTP configuration before MailChannels and the console", async () => {
    const { smtp, credentials, mailChannels } = mailStandins();
    const to = `chosen-${crypto.randomUUID()}@example.com`;
    await saveSmtpSettings(db(), secretKeys(env), {
      host: "localhost",
      port: smtp.starttls,
      user: credentials.user,
      password: credentials.pass,
      from: "noreply@dc.test",
    });
    const both = testEnv({ MAILCHANNELS_API_KEY: mailChannels.apiKey, MAILCHANNELS_API_URL: mailChannels.url });
    await sendMail(both, db(), { ...message, to });

    const { smtp: viaSmtp, mailChannels: viaMailChannels } = await received();
    expect(viaSmtp.starttls.messages.some((m) => m.to === to)).toBe(true);
    expect(viaMailChannels.some((r) => JSON.stringify(r.body).includes(to))).toBe(false);
    expect(logs).not.toHaveBeenCalled();
  });
});
