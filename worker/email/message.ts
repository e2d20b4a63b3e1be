/** @module One mail, as every transport sends it: plain text to one address. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}
