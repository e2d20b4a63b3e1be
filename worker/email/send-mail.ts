/**
 * @module `sendMail()`: one call, three transports chosen at run time. SMTP when a configuration is stored
 * (smtp.ts), else MailChannels' Email API when its key is set (mailchannels.ts), else the console. The console
 * is for development: only there are a message's links and codes printed. In production it refuses (503), unless
 * `MAIL_CONSOLE_IN_PRODUCTION=true` lets it print the recipient and subject, never the body.
 */
import type { Db } from "../db/client";
import { isDevelopment, type Env } from "../env";
import { ApiError } from "../http/errors";
import { secretKeys } from "../lib/crypto";
import { getSmtpSettings } from "../models/smtp-config";
import { sendViaMailChannels } from "./mailchannels";
import type { MailMessage } from "./message";
import { sendViaSmtp } from "./smtp";

const DEFAULT_FROM = "no-reply@dynamic-content.local";

/** Sends the message; a transport failure is logged (without the body) and answered as a 502 the UI can show. */
export async function sendMail(env: Env, db: Db, message: MailMessage): Promise<void> {
  const smtp = await getSmtpSettings(db, secretKeys(env));
  const from = env.MAIL_FROM || DEFAULT_FROM;
  let transport = "";
  try {
    if (smtp) {
      transport = `SMTP ${smtp.host}:${smtp.port}`;
      return await sendViaSmtp(smtp, message);
    }
    if (env.MAILCHANNELS_API_KEY) {
      transport = "MailChannels";
      const account = { apiKey: env.MAILCHANNELS_API_KEY, url: env.MAILCHANNELS_API_URL, from };
      return await sendViaMailChannels(account, message);
    }
  } catch (err) {
    console.error(
      `Mail "${message.subject}" could not be sent via ${transport}: ${err instanceof Error ? err.message : err}`,
    );
    throw new ApiError(502, "The email could not be sent. Please try again later.");
  }
  printToConsole(env, from, message);
}

function printToConsole(env: Env, from: string, message: MailMessage): void {
  if (isDevelopment(env)) {
    console.log(`[mail] from ${from} to ${message.to}\n[mail] subject: ${message.subject}\n${message.text}`);
    return;
  }
  if (env.MAIL_CONSOLE_IN_PRODUCTION === "true") {
    console.log(`[mail] to ${message.to}\n[mail] subject: ${message.subject}\n[mail] (body not printed in production)`);
    return;
  }
  console.error(
    `Mail "${message.subject}" was not sent: email is not configured (no SMTP configuration, no ` +
      "MAILCHANNELS_API_KEY). Store an SMTP configuration, or set MAIL_CONSOLE_IN_PRODUCTION=true to log " +
      "recipients and subjects only.",
  );
  throw new ApiError(503, "Email is not configured. Please contact the administrator.");
}
