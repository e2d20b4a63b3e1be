/** @module The mails the product sends, in one place. */
import type { RegistrationPage } from "#contract/schemas";
import type { MailMessage } from "./message";

/** Where a verification link leads: page A's verify screen, or back to page B, which verifies on its own. */
const VERIFY_PATHS: Record<RegistrationPage, string> = { register: "/verify-email", "register-form": "/register-form" };

/** The SPA page that verifies a token: the one the customer signed up on (page A unless told otherwise). */
export const verificationLink = (origin: string, token: string, page: RegistrationPage = "register") =>
  `${origin}${VERIFY_PATHS[page]}?token=${encodeURIComponent(token)}`;

/** The SPA's login page, which signs in with a mailed token. */
export const signInLink = (origin: string, token: string) => `${origin}/login?token=${encodeURIComponent(token)}`;

export function verificationMail(to: string, link: string): MailMessage {
  return {
    kind: "verification",
    to,
    subject: "Verify your email for Dynamic Content",
    text: [
      "Welcome to Dynamic Content!",
      "",
      "Confirm your email address to receive your API key:",
      link,
      "",
      "The link expires in 24 hours. If you did not sign up, ignore this mail.",
    ].join("\n"),
  };
}

export function apiKeyMail(to: string, apiKey: string, origin: string): MailMessage {
  return {
    kind: "api-key",
    to,
    subject: "Your Dynamic Content API key",
    text: [
      "Your email is verified. This is your API key:",
      "",
      apiKey,
      "",
      `Manage your URL mappings at ${origin}/dashboard`,
      "Keep the key secret: it is the credential for your account.",
    ].join("\n"),
  };
}

export function loginCodeMail(to: string, code: string): MailMessage {
  return {
    kind: "login-code",
    to,
    subject: "Your Dynamic Content login code",
    text: [
      `Your login code is ${code}`,
      "",
      "It is valid for 10 minutes and can be used once.",
      "If you did not try to log in, ignore this mail.",
    ].join("\n"),
  };
}

/** Sent instead of a code once too many wrong codes were tried for the address. */
export function signInLinkMail(to: string, link: string): MailMessage {
  return {
    kind: "sign-in-link",
    to,
    subject: "Your Dynamic Content sign-in link",
    text: [
      "Too many wrong login codes were entered for your account, so login codes are paused for a day.",
      "",
      "Sign in with this link instead (valid for one hour, once):",
      link,
      "",
      "If you did not try to log in, someone may be guessing codes for your address. Your account is safe:",
      "only this link, which only you received, signs you in.",
    ].join("\n"),
  };
}

/** Sent when someone asks for a login code for an admin's address: admins sign in with their password only. */
export function adminLoginNoticeMail(to: string, origin: string): MailMessage {
  return {
    kind: "admin-login-notice",
    to,
    subject: "Dynamic Content: login code requested for an admin account",
    text: [
      "Someone asked for a login code for this address. No code was sent:",
      `admin accounts sign in with their password at ${origin}/admin-login.`,
      "",
      "If this was not you, nothing was changed.",
    ].join("\n"),
  };
}

/** Sent once, when a claim is proven (by "Check now" or the minute cron): what is left for an edge website. */
export function websiteActiveMail(to: string, hostname: string, edge: boolean): MailMessage {
  return {
    kind: "website",
    to,
    subject: `Dynamic Content: ${hostname} is proven`,
    text: [
      `The TXT record proves that ${hostname} is yours. Keep it in place: it is checked again every day.`,
      "",
      edge
        ? `Dynamic Content serves ${hostname} from now on. If its DNS does not point at us yet, point it there now: the Websites tab shows each step's status.`
        : `The snippet delivers your content on ${hostname} as before.`,
    ].join("\n"),
  };
}

/** Sent when a daily check of a proven website first finds its DNS record missing or changed. */
export function proofFailingMail(
  to: string,
  hostname: string,
  record: string,
  problem: string,
  checksLeft: number,
): MailMessage {
  return {
    kind: "website",
    to,
    subject: `Dynamic Content: the DNS record proving ${hostname} is missing`,
    text: [
      `Our daily check of ${hostname} did not find your proof: ${problem}`,
      "",
      `Keep the TXT record at ${record} with your claim's value (shown in the Websites tab).`,
      `If ${checksLeft} more daily check${checksLeft === 1 ? "" : "s"} fail${checksLeft === 1 ? "s" : ""}, your claim of ${hostname} ends and Dynamic Content stops serving it.`,
    ].join("\n"),
  };
}

/** Sent when a proven website's claim ended because its DNS record stayed missing. */
export function proofLapsedMail(to: string, hostname: string, record: string): MailMessage {
  return {
    kind: "website",
    to,
    subject: `Dynamic Content: your claim of ${hostname} ended`,
    text: [
      `The TXT record at ${record} no longer proved ${hostname} on three daily checks in a row, so your claim ended`,
      `and Dynamic Content no longer serves ${hostname}.`,
      "",
      "If the website is still yours, claim it again in the Websites tab and add the new record it shows.",
    ].join("\n"),
  };
}

/** Sent to the previous holder when another account proved a hostname with its DNS. */
export function websiteTakenOverMail(to: string, hostname: string, record: string): MailMessage {
  return {
    kind: "website",
    to,
    subject: `Dynamic Content: ${hostname} moved to another account`,
    text: [
      `The DNS of ${hostname} now holds another account's value at ${record}, so ${hostname} moved to that account`,
      "and your claim of it ended. Whoever runs a domain's DNS decides who serves it.",
      "",
      "If this is unexpected, check who can change the domain's DNS records.",
    ].join("\n"),
  };
}

/** Sent when an admin saves an SMTP configuration with "Send test mail to". */
export function smtpTestMail(to: string, host: string): MailMessage {
  return {
    kind: "test",
    to,
    subject: "Dynamic Content: test mail",
    text: [
      `This test mail came through ${host}: the SMTP configuration works.`,
      "",
      "Login codes, verification links and API keys are sent the same way.",
    ].join("\n"),
  };
}
