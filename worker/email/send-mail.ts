/**
 * @module `sendMail()`: one call, three transports chosen at run time. SMTP when a configuration is stored
 * (worker-mailer over cloudflare:sockets), else MailChannels' Email API when its key is set, else the console
 * (the local default, the only place a message's links and codes are ever printed).
 */
import { LogLevel, WorkerMailer } from "worker-mailer";
import type { Db } from "../db/client";
import type { Env } from "../env";
import { ApiError } from "../http/errors";
import { getSmtpSettings, type SmtpSettings } from "../models/smtp-config";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

const DEFAULT_FROM = "no-reply@dynamic-content.local";
const MAILCHANNELS_URL = "https://api.mailchannels.net/tx/v1/send";

/** Sends the message; a transport failure is logged and answered as a 502 the UI can show. */
export async function sendMail(env: Env, db: Db, message: MailMessage): Promise<void> {
  const smtp = await getSmtpSettings(db, env.APP_SECRET);
  try {
    if (smtp) return await sendViaSmtp(smtp, message);
    if (env.MAILCHANNELS_API_KEY) return await sendViaMailChannels(env, message);
  } catch (err) {
    console.error(`Mail "${message.subject}" could not be sent:`, err instanceof Error ? err.message : err);
    throw new ApiError(502, "The email could not be sent. Please try again later.");
  }
  sendViaConsole(env, message);
}

async function sendViaSmtp(smtp: SmtpSettings, message: MailMessage): Promise<void> {
  const mailer = await WorkerMailer.connect({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.port === 465,
    startTls: true,
    credentials: { username: smtp.user, password: smtp.password },
    authType: ["plain", "login"],
    logLevel: LogLevel.ERROR,
    socketTimeoutMs: 10_000,
    responseTimeoutMs: 10_000,
  });
  try {
    await mailer.send({ from: smtp.from, to: message.to, subject: message.subject, text: message.text });
  } finally {
    await mailer.close().catch(() => undefined);
  }
}

async function sendViaMailChannels(env: Env, message: MailMessage): Promise<void> {
  const response = await fetch(env.MAILCHANNELS_API_URL || MAILCHANNELS_URL, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Api-Key": env.MAILCHANNELS_API_KEY! },
    body: JSON.stringify({
      personalizations: [{ to: [{ email: message.to }] }],
      from: { email: env.MAIL_FROM || DEFAULT_FROM },
      subject: message.subject,
      content: [{ type: "text/plain", value: message.text }],
    }),
  });
  if (!response.ok) throw new Error(`MailChannels answered ${response.status}`);
}

function sendViaConsole(env: Env, message: MailMessage): void {
  console.log(
    `[mail] from ${env.MAIL_FROM || DEFAULT_FROM} to ${message.to}\n[mail] subject: ${message.subject}\n${message.text}`,
  );
}
