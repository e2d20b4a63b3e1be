import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import type { Env } from "../env";
import { ApiError } from "../http/errors";
import { secretKeys } from "../lib/crypto";
import { latestMailFailures, MAIL_OUTAGE_MS, mailOutageUntil, recordMailFailure } from "../models/mail-failures";
import { saveSmtpSettings } from "../models/smtp-config";
import { db, testEnv } from "../test/helpers";
import { mailStandins, received } from "../test/mail-standins";
import type { MailMessage } from "./message";
import { assertMailCanBeSent, MAIL_NOT_SENT, sendMail } from "./send-mail";

const message: MailMessage = {
  kind: "api-key",
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

describe("a mail that cannot be sent", () => {
  const { smtp, credentials, refusedRecipientPrefix } = mailStandins();
  const useSmtp = (password: string) =>
    saveSmtpSettings(db(), secretKeys(env), {
      host: "localhost",
      port: smtp.starttls,
      user: credentials.user,
      password,
      from: "noreply@dc.test",
    });

  it("is kept for the admins (kind, masked recipient, reason) and holds mail requests back when the login fails", async () => {
    await useSmtp("wrong-password");
    const failure = await sendMail(testEnv(), db(), message).catch((err: unknown) => err);

    expect(failure).toMatchObject({ status: 502, message: MAIL_NOT_SENT });
    const [kept] = await latestMailFailures(db());
    expect(kept).toMatchObject({ kind: "api-key", recipient: "so•••@example.com" });
    expect(kept?.error).toMatch(/^SMTP localhost:\d+: the login was refused: 535/);
    expect(kept?.error).not.toContain("wrong-password");
    expect(await mailOutageUntil(db())).not.toBeNull();
  });

  it("does not hold mail back when only its recipient was refused", async () => {
    await useSmtp(credentials.pass);
    const to = `${refusedRecipientPrefix}-${crypto.randomUUID()}@example.com`;
    await sendMail(testEnv(), db(), { ...message, to }).catch(() => undefined);

    expect((await latestMailFailures(db()))[0]?.error).toMatch(/the recipient was refused: 550/);
    expect(await mailOutageUntil(db())).toBeNull();
  });

  it("is kept, and holds mail back, when production has no transport at all", async () => {
    await sendMail(testEnv({ ENVIRONMENT: "production" }), db(), message).catch(() => undefined);

    expect((await latestMailFailures(db()))[0]?.error).toMatch(/^email is not configured/);
    expect(await mailOutageUntil(db())).not.toBeNull();
  });
});

describe("assertMailCanBeSent", () => {
  it("refuses with 503 and Retry-After during an outage, and in production without a transport", async () => {
    await expect(assertMailCanBeSent(testEnv(), db())).resolves.toBeUndefined();
    await expect(assertMailCanBeSent(testEnv({ ENVIRONMENT: "production" }), db())).rejects.toMatchObject({
      status: 503,
      message: MAIL_NOT_SENT,
    });
    const withKey = testEnv({ ENVIRONMENT: "production", MAILCHANNELS_API_KEY: "key" });
    await expect(assertMailCanBeSent(withKey, db())).resolves.toBeUndefined();

    const now = Date.now();
    await recordMailFailure(db(), { kind: "verification", to: "a@example.com", error: "x", blocksMail: true }, now);
    await expect(assertMailCanBeSent(testEnv(), db(), now + 30_000)).rejects.toMatchObject({
      status: 503,
      message: MAIL_NOT_SENT,
      headers: { "Retry-After": String((MAIL_OUTAGE_MS - 30_000) / 1000) },
    });
  });
});
