/**
 * `npm run secrets:reseal -- [--remote]`: the last step of rotating APP_SECRET (docs/deploy.md, "Rotating APP_SECRET").
 * With the new secret as APP_SECRET and the old one as APP_SECRET_PREVIOUS, it seals every stored API key, webhook
 * secret and the SMTP password again under the new secret, so that APP_SECRET_PREVIOUS can then be removed. Locally
 * the secrets come from `.dev.vars`; with --remote from this shell's environment (the same two variables), since
 * production's secrets cannot be read back.
 */
import { getSmtpSettings } from "../../worker/models/smtp-config";
import { resealAllKeys } from "../../worker/models/api-keys";
import { resealAllWebhookSecrets } from "../../worker/models/webhooks";
import { createDb } from "../../worker/db/client";
import { secretKeys } from "../../worker/lib/crypto";
import { appSecretProblem } from "../../worker/http/app-secret-check";
import { withBindings } from "./bindings.mjs";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
if (args.some((a) => a !== "--remote")) {
  console.error("Usage: npm run secrets:reseal -- [--remote]");
  process.exit(2);
}

await withBindings(remote, async (env, where) => {
  const secrets = remote
    ? { APP_SECRET: process.env.APP_SECRET ?? "", APP_SECRET_PREVIOUS: process.env.APP_SECRET_PREVIOUS }
    : env;
  const problem = appSecretProblem(secrets);
  if (problem || !secrets.APP_SECRET_PREVIOUS) {
    console.error(`${problem ?? "APP_SECRET_PREVIOUS is not set"}: set both, the new and the old secret.`);
    process.exitCode = 1;
    return;
  }
  const db = createDb(env.DB);
  const keys = secretKeys(secrets);
  const result = await resealAllKeys(db, keys);
  const hooks = await resealAllWebhookSecrets(db, keys);
  await getSmtpSettings(db, keys);
  console.log(
    `In ${where}: ${result.checked} API keys checked, ${result.resealed} sealed again under the new APP_SECRET` +
      (result.unreadable ? `, ${result.unreadable} open under neither secret (left as they are)` : "") +
      `; ${hooks.checked} webhook secrets checked, ${hooks.resealed} sealed again` +
      (hooks.unreadable ? `, ${hooks.unreadable} open under neither secret` : "") +
      ". The SMTP password, if any, is under the new secret too.",
  );
});
