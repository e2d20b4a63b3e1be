import type { ProductVersion } from "../../../worker/contract/responses";

/** A product version (or plan): 'Free', limits 100 / 1 / 10, no price, no PayPal plan, not the default. */
export const productVersion = (overrides: Partial<ProductVersion>): ProductVersion => ({
  id: 1,
  name: "Free",
  description: null,
  eventsLimit: 100,
  websitesLimit: 1,
  dynamicContentLimit: 10,
  price: null,
  paypalPlanId: null,
  isDefault: false,
  ...overrides,
});
