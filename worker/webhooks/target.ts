/**
 * @module Where a webhook may point (docs/webhooks.md, "Limits"): the rule of every outbound request of a customer's
 * (http/outbound-target.ts), in the webhook's words. Checked when a webhook is registered and again before every
 * attempt.
 */
import type { Env } from "../env";
import { resolvedTargetProblem, type TargetProblem } from "../http/outbound-target";

export const WEBHOOK_HTTPS_ONLY = "Webhook URL must start with https://";
export const WEBHOOK_PUBLIC_HOST =
  "Webhook URL must name a public host such as https://hooks.example.com, not an IP address or a local name";
export const WEBHOOK_NO_CREDENTIALS = "Webhook URL must not contain a user name or password";
export const WEBHOOK_NOT_OURS = "Webhook URL must not point at Dynamic Content itself";
export const WEBHOOK_PRIVATE_ADDRESS =
  "Webhook URL's host name must resolve to public addresses only, not to a private, loopback or reserved one";
export const WEBHOOK_UNRESOLVED = "Webhook URL's host name could not be looked up. Please try again in a few minutes.";

export const WEBHOOK_PROBLEMS: Record<TargetProblem, string> = {
  credentials: WEBHOOK_NO_CREDENTIALS,
  https: WEBHOOK_HTTPS_ONLY,
  "public-host": WEBHOOK_PUBLIC_HOST,
  ours: WEBHOOK_NOT_OURS,
  "private-address": WEBHOOK_PRIVATE_ADDRESS,
  unresolved: WEBHOOK_UNRESOLVED,
};

/** Why `url` (already an http(s) URL of at most 2,048 characters) cannot be a webhook here, or null. */
export function webhookUrlProblem(env: Env, url: string): Promise<TargetProblem | null> {
  return resolvedTargetProblem(env, new URL(url));
}
