/**
 * @module `sendMail()`: one call, three transports chosen at run time. SMTP when a configuration is stored
 * (smtp.ts), else MailChannels' Email API when its key is set (mailchannels.ts), else the console. The console
 * is for development: only there are a message's links and codes printed. In production it refuses (503), unless
 * `MAIL_CONSOLE_IN_PRODUCTION=true` lets it print the recipient and subject, never the body. Every failure is
 * kept for the admin overview (models/mail-failures.ts).
 */
import type { Db } from "../db/client";
import { isDevelopment, type Env } from "../env";
import { ApiError } from "../http/errors";
import { secretKeys } from "../lib/crypto";
import { mailOutageUntil, recordMailFailure } from "../models/mail-failures";
import { getSmtpSettings, hasSmtpSettings } from "../models/smtp-config";
import { MailChannelsError, sendViaMailChannels } from "./mailchannels";
import type { MailMessage } from "./message";
import { sendViaSmtp, SmtpError } from "./smtp";

const DEFAULT_FROM = "no-reply@dynamic-content.local";

/** What a person is told when their mail cannot go out. */
export const MAIL_NOT_SENT = "We could not send the email; please try again later";

const NOT_CONFIGURED = "email is not configured (no SMTP configuration, no MAILCHANNELS_API_KEY)";

/** Sends the message; a transport failure is logged (without the body), kept, and answered as a 502 the UI can show. */
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
    const reason = err instanceof Error ? err.message : String(err);
    console.error(`Mail "${message.subject}" could not be sent via ${transport}: ${reason}`);
    await keepFailure(db, message, `${transport}: ${reason}`, blocksAllMail(err));
    throw new ApiError(502, MAIL_NOT_SENT);
  }
  await printToConsole(env, db, from, message);
}

/**
 * Before a request whose answer says a mail is on its way (registration, a login code): 503 "We could not send
 * the email" while no mail can go out: no transport in production, or the transport failed within the last
 * minutes. The answer depends on the transport only, never on the address, so it tells nobody whether an account
 * exists.
 */
export async function assertMailCanBeSent(env: Env, db: Db, now = Date.now()): Promise<void> {
  const until = await mailOutageUntil(db, now);
  if (until !== null)
    throw new ApiError(503, MAIL_NOT_SENT, { "Retry-After": String(Math.max(1, Math.ceil((until - now) / 1000))) });
  if (!consoleMayPrint(env) && !env.MAILCHANNELS_API_KEY && !(await hasSmtpSettings(db)))
    throw new ApiError(503, MAIL_NOT_SENT);
}

/**
 * Whether the failure is the transport's (unreachable, TLS, login, MailChannels' key or outage), which every mail
 * would meet, rather than this message's (a refused recipient or content).
 */
function blocksAllMail(err: unknown): boolean {
  if (err instanceof SmtpError) return err.stage !== "message";
  if (err instanceof MailChannelsError)
    return err.status === null || err.status === 401 || err.status === 403 || err.status >= 500;
  return true;
}

async function keepFailure(db: Db, message: MailMessage, error: string, blocksMail: boolean) {
  await recordMailFailure(db, { kind: message.kind, to: message.to, error, blocksMail }).catch((err: unknown) =>
    console.error("Keeping a mail failure failed:", err instanceof Error ? err.message : err),
  );
}

const consoleMayPrint = (env: Env) => isDevelopment(env) || env.MAIL_CONSOLE_IN_PRODUCTION === "true";

async function printToConsole(env: Env, db: Db, from: string, message: MailMessage): Promise<void> {
  if (isDevelopment(env)) {
    console.log(`[mail] from ${from} to ${message.to}\n[mail] subject: ${message.subject}\n${message.text}`);
    return;
  }
  if (consoleMayPrint(env)) {
    console.log(`[mail] to ${message.to}\n[mail] subject: ${message.subject}\n[mail] (body not printed in production)`);
    return;
  }
  console.error(
    `Mail "${message.subject}" was not sent: ${NOT_CONFIGURED}. Store an SMTP configuration, or set ` +
      "MAIL_CONSOLE_IN_PRODUCTION=true to log recipients and subjects only.",
  );
  await keepFailure(db, message, NOT_CONFIGURED, true);
  throw new ApiError(503, "Email is not configured. Please contact the administrator.");
}
