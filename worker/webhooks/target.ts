/**
 * @module Where a webhook may point (docs/webhooks.md, "Limits"): the rule of every outbound request of a customer's
 * (http/outbound-target.ts), in the webhook's words. Checked when a webhook is registered and again before every
 * attempt.
 */
import type { Env } from "../env";
import { outboundTargetProblem, type TargetProblem } from "../http/outbound-target";

export const WEBHOOK_HTTPS_ONLY = "Webhook URL must start with https://";
export const WEBHOOK_PUBLIC_HOST =
  "Webhook URL must name a public host such as https://hooks.example.com, not an IP address or a local name";
export const WEBHOOK_NO_CREDENTIALS = "Webhook URL must not contain a user name or password";
export const WEBHOOK_NOT_OURS = "Webhook URL must not point at Dynamic Content itself";

const MESSAGES: Record<TargetProblem, string> = {
  credentials: WEBHOOK_NO_CREDENTIALS,
  https: WEBHOOK_HTTPS_ONLY,
  "public-host": WEBHOOK_PUBLIC_HOST,
  ours: WEBHOOK_NOT_OURS,
};

/** Why `url` (already an http(s) URL of at most 2,048 characters) cannot be a webhook here, or null. */
export function webhookUrlProblem(env: Env, url: string): string | null {
  const problem = outboundTargetProblem(env, new URL(url));
  return problem ? MESSAGES[problem] : null;
}
