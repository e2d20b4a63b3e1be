// The cron triggers of wrangler.toml, fired locally. Miniflare never fires them by itself (wrangler dev warns
// "Miniflare does not currently trigger scheduled Workers automatically"), so without this a schedule set in the
// dashboard would never publish under `npm start`, failed webhooks would never be retried and the daily
// housekeeping would never run. Each trigger is fired at its own times (UTC, as Cloudflare does) through the
// local dev server's trigger endpoint, which only `wrangler dev` has.
import { resolve } from "node:path";
import { Cron } from "croner";
import { unstable_readConfig } from "wrangler";
import { root } from "./lib.mjs";

const TRIGGER_PATH = "/cdn-cgi/local/scheduled";

/** The cron expressions wrangler.toml declares. */
export function configuredCrons() {
  return unstable_readConfig({ config: resolve(root, "wrangler.toml") }).triggers.crons ?? [];
}

/** Fires one cron trigger of the Worker at `origin` now; never throws (the next tick tries again). */
export async function fireCron(origin, cron) {
  const url = `${origin}${TRIGGER_PATH}?cron=${encodeURIComponent(cron)}`;
  try {
    const res = await fetch(url);
    if (!res.ok) console.error(`[cron] "${cron}" answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  } catch (err) {
    console.error(`[cron] "${cron}" could not be fired: ${err instanceof Error ? err.message : err}`);
  }
}

/** Fires every configured cron trigger at its times until the process ends; answers the jobs. */
export function startLocalCrons(origin) {
  const crons = configuredCrons();
  // Said once, since wrangler warns that nothing fires them.
  console.log(`[cron] firing wrangler.toml's triggers (UTC) here: ${crons.map((c) => `"${c}"`).join(", ")}`);
  // `protect`: a run still going (a slow daily one) is not started a second time.
  return crons.map((cron) => new Cron(cron, { timezone: "UTC", protect: true }, () => fireCron(origin, cron)));
}
