/**
 * @module Settings are tried before they are stored: the SMTP client's own conversation, step by step, and a 400
 * whose message names the step that failed and why.
 */
import { badRequest } from "../http/errors";
import type { SmtpSettings } from "../models/smtp-config";
import { smtpTestMail } from "./messages";
import { checkSmtp, SmtpError, type SmtpStage } from "./smtp";

const FAILED_STEP: Record<SmtpStage, (settings: SmtpSettings) => string> = {
  connect: ({ host, port }) => `Could not connect to ${host}:${port}`,
  tls: () => "TLS upgrade failed",
  login: () => "Authentication failed",
  message: () => "The test mail was refused",
};

/** Connects, upgrades to TLS, logs in and, given `testTo`, sends it a test mail; a failure answers 400. */
export async function assertSmtpWorks(settings: SmtpSettings, testTo?: string): Promise<void> {
  try {
    await checkSmtp(settings, testTo ? smtpTestMail(testTo, settings.host) : undefined);
  } catch (err) {
    if (!(err instanceof SmtpError)) throw err;
    throw badRequest(`${FAILED_STEP[err.stage](settings)}: ${err.detail}`);
  }
}
