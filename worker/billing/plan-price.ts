/**
 * @module The product version a PayPal subscription is for, and whether PayPal charges that version's price:
 * the subscription's plan is fetched from PayPal (`GET /v1/billing/plans/{id}`) and compared (price-match.ts).
 */
import type { Db } from "../db/client";
import type { ProductVersion } from "../db/schema";
import type { Env } from "../env";
import { findProductVersionByPlanId } from "../models/product-versions";
import { paypalConfig } from "../paypal/config";
import { getPlan, type PayPalSubscription } from "../paypal/rest-api";
import { subscriptionPriceProblem } from "./price-match";

/** `version` undefined: no plan of ours; `problem` set: PayPal does not charge the plan's price. */
export async function planOf(
  env: Env,
  db: Db,
  remote: PayPalSubscription,
): Promise<{ version?: ProductVersion; problem: string | null }> {
  const version = remote.planId ? await findProductVersionByPlanId(db, remote.planId) : undefined;
  if (!version || !remote.planId) return { problem: null };
  const plan = await getPlan(env, remote.planId);
  return { version, problem: subscriptionPriceProblem(remote, plan, version, paypalConfig(env).currency) };
}
