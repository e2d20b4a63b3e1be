/**
 * @module What the mail stand-ins (started in Node by worker/test/node/mail-standins.ts) are and what they
 * received, read from inside workerd.
 */
import { inject } from "vitest";

export type SmtpStandin = "starttls" | "implicitTls" | "plaintext" | "untrustedCertificate";

export interface MailStandins {
  /** Ports of the local SMTP servers on localhost. */
  smtp: Record<SmtpStandin, number>;
  /** The login every SMTP stand-in accepts. */
  credentials: { user: string; pass: string };
  /** Recipients whose RCPT TO is refused (550) start with this. */
  refusedRecipientPrefix: string;
  /** The MailChannels Email API stand-in and the key it accepts; `${base}/answer/<status>` answers that status. */
  mailChannels: { url: string; base: string; apiKey: string };
  /** GET: everything received so far, as `Received`. */
  mailboxUrl: string;
}

export interface ReceivedSmtpMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  tls: boolean;
  user: string | undefined;
}

export interface ReceivedMailChannelsRequest {
  path: string;
  apiKey: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

export interface Received {
  smtp: Record<SmtpStandin, { messages: ReceivedSmtpMail[]; logins: { user: string; tls: boolean }[] }>;
  mailChannels: ReceivedMailChannelsRequest[];
}

declare module "vitest" {
  export interface ProvidedContext {
    mailStandins: MailStandins;
  }
}

export const mailStandins = () => inject("mailStandins");

export async function received(): Promise<Received> {
  return (await fetch(mailStandins().mailboxUrl)).json();
}
