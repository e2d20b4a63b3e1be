import type { ProductVersion } from "../../../../worker/contract/responses";

/**
 * Where a plan's subscribe buttons go: the payment provider's SDK renders them for each plan with a
 * `paypalPlanId` (SPEC.md §2). They arrive in a later issue; until then nothing is rendered.
 */
export function PlanSubscribeSlot(_props: { plan: ProductVersion }) {
  return null;
}
