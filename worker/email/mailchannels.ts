/**
 * @module The MailChannels transport: one POST to its Email API (`X-Api-Key`), 202 when accepted. Errors say
 * what MailChannels answered (status and the start of its error text), never the message.
 */
import type { MailMessage } from "./message";

export const MAILCHANNELS_URL = "https://api.mailchannels.net/tx/v1/send";
const TIMEOUT_MS = 10_000;

export interface MailChannelsAccount {
  apiKey: string;
  /** Default `MAILCHANNELS_URL`; tests point it at a local stand-in. */
  url?: string;
  from: string;
}

/** MailChannels' refusal; `status` null when it could not be reached. */
export class MailChannelsError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export async function sendViaMailChannels(account: MailChannelsAccount, message: MailMessage): Promise<void> {
  let response: Response;
  try {
    response = await fetch(account.url || MAILCHANNELS_URL, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Api-Key": account.apiKey },
      body: JSON.stringify({
        personalizations: [{ to: [{ email: message.to }] }],
        from: { email: account.from },
        subject: message.subject,
        content: [{ type: "text/plain", value: message.text }],
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new MailChannelsError(
      `MailChannels could not be reached: ${err instanceof Error ? err.message : String(err)}`,
      null,
    );
  }
  if (response.ok) return;
  const answer = (await response.text().catch(() => "")).replace(/\s+/g, " ").slice(0, 200);
  throw new MailChannelsError(
    `MailChannels answered ${response.status}${answer ? `: ${answer}` : ""}`,
    response.status,
  );
}
