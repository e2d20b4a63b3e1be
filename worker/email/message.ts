/** @module One mail, as every transport sends it: plain text to one address. */
import type { MailKind } from "#contract/responses";

export interface MailMessage {
  /** Which of the product's mails it is: a failure is listed for admins by it. */
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
}
