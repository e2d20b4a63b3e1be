/**
 * `npm run delivery:rebuild -- <userId|--all> [--remote]`: rebuilds delivery store entries from D1, for repair
 * after an incident and once after the move to the per-URL store (docs/deploy.md). It runs the Worker's own
 * rebuild (worker/delivery/rebuild.ts: bounded pages, one customer after another) in Node, against the local D1
 * and KV of `npm start`, or with --remote against production's (wrangler's remote bindings; log in first with
 * `npx wrangler login`).
 */
import { rebuildAll, rebuildCustomer, type RebuildResult } from "../../worker/delivery/rebuild";
import { withBindings } from "./bindings.mjs";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const all = args.includes("--all");
const [userId] = args.filter((a) => !a.startsWith("--"));
if (all === Boolean(userId) || args.some((a) => a.startsWith("--") && a !== "--all" && a !== "--remote")) {
  console.error("Usage: npm run delivery:rebuild -- <userId|--all> [--remote]");
  process.exit(2);
}

const report = (id: string, r: RebuildResult) =>
  console.log(`${id}: ${r.written} entries written, ${r.removed} stale entries removed`);

await withBindings(remote, async (env, where) => {
  if (all) console.log(`Rebuilt ${await rebuildAll(env, report)} customers in ${where}.`);
  else report(userId!, await rebuildCustomer(env, userId!));
});
