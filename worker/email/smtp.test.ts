import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { ApiError } from "../http/errors";
import { secretKeys } from "../lib/crypto";
import { saveSmtpSettings } from "../models/smtp-config";
import { db, testEnv } from "../test/helpers";
import { mailStandins, received, type SmtpStandin } from "../test/mail-standins";
import type { MailMessage } from "./message";
import { sendMail } from "./send-mail";
import { formatMessage, sendViaSmtp, tlsModeFor } from "./smtp";

const { smtp, credentials, refusedRecipientPrefix } = mailStandins();
const settings = (server: SmtpStandin, password = credentials.pass) => ({
  host: "localhost",
  port: smtp[server],
  user: credentials.user,
  password,
  from: "noreply@dc.test",
});
const useSmtp = (server: SmtpStandin, password?: string) =>
  saveSmtpSettings(db(), secretKeys(env), settings(server, password));

const message = (to: string): MailMessage => ({
  kind: "login-code",
  to,
  subject: "Dein Login-Code für Dynamic Content",
  text: "Your login code is 424242\nhttps://dc.test/verify-email?token=secret-token\nGrüße",
});
const unique = (name: string) => `${name}-${crypto.randomUUID()}@example.com`;

async function arrived(server: SmtpStandin, to: string) {
  return (await received()).smtp[server].messages.find((m) => m.to === to);
}

let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => errors.mockRestore());
const logged = () => errors.mock.calls.map((args) => args.join(" ")).join("\n");

/** Sending fails with the UI's 502, and the log says why without the body or the password. */
async function expectRefusal(to: string, reason: RegExp) {
  const failure = await sendMail(testEnv(), db(), message(to)).catch((err: unknown) => err);
  expect(failure).toBeInstanceOf(ApiError);
  expect(failure).toMatchObject({ status: 502, message: "We could not send the email; please try again later" });
  expect(logged()).toMatch(reason);
  expect(logged()).not.toMatch(/424242|secret-token|Grüße/);
  expect(logged()).not.toContain("wrong-password");
  expect(logged()).not.toContain(credentials.pass);
}

describe("SMTP with a local server and a certificate of this run's test CA", () => {
  it("delivers over STARTTLS (587 style), logging in only after the upgrade", async () => {
    const to = unique("starttls");
    await useSmtp("starttls");
    await sendMail(testEnv(), db(), message(to));

    const mail = await arrived("starttls", to);
    expect(mail).toEqual({
      from: "noreply@dc.test",
      to,
      subject: "Dein Login-Code für Dynamic Content",
      text: "Your login code is 424242\nhttps://dc.test/verify-email?token=secret-token\nGrüße",
      tls: true,
      user: credentials.user,
    });
    expect((await received()).smtp.starttls.logins.every((login) => login.tls)).toBe(true);
  });

  it("delivers over TLS from the first byte (465 style)", async () => {
    const to = unique("implicit");
    await sendViaSmtp(settings("implicitTls"), message(to), "implicit");

    expect(await arrived("implicitTls", to)).toMatchObject({ to, tls: true, user: credentials.user });
  });

  it("uses TLS from the first byte on port 465 and STARTTLS on every other port", () => {
    expect(tlsModeFor(465)).toBe("implicit");
    expect(tlsModeFor(587)).toBe("starttls");
    expect(tlsModeFor(25)).toBe("starttls");
    expect(tlsModeFor(2525)).toBe("starttls");
  });

  it("answers 502 and logs the refused login when the password is wrong", async () => {
    await useSmtp("starttls", "wrong-password");
    await expectRefusal(unique("wrong-password"), /via SMTP localhost:\d+: the login was refused: 535/);
  });

  it("answers 502 and logs the refusal when the server refuses the recipient", async () => {
    await useSmtp("starttls");
    await expectRefusal(
      `${refusedRecipientPrefix}-${crypto.randomUUID()}@example.com`,
      /the recipient was refused: 550/,
    );
  });

  it("never sends the password to a server without STARTTLS", async () => {
    await useSmtp("plaintext");
    await expectRefusal(unique("plaintext"), /does not offer STARTTLS/);

    const { plaintext } = (await received()).smtp;
    expect(plaintext.logins).toEqual([]);
    expect(plaintext.messages).toEqual([]);
  });

  it("refuses a server whose certificate the runtime does not trust", async () => {
    await useSmtp("untrustedCertificate");
    await expectRefusal(unique("untrusted"), /TLS handshake failed/);

    expect((await received()).smtp.untrustedCertificate.logins).toEqual([]);
  });

  it("answers 502 when nothing listens on the configured port", async () => {
    await saveSmtpSettings(db(), secretKeys(env), { ...settings("starttls"), port: 1 });
    await expectRefusal(unique("closed"), /could not connect to localhost:1/);
  });
});

describe("the SMTP message", () => {
  it("refuses a header with a line break (no header injection)", () => {
    expect(() =>
      formatMessage("noreply@dc.test", { ...message("a@example.com"), subject: "Hi\r\nBcc: x@evil.test" }),
    ).toThrow("line break");
    expect(() => formatMessage("noreply@dc.test", message("a@example.com\nBcc: x@evil.test"))).toThrow("line break");
  });
});
