/** @module The product version form's text fields and the request body they make (SPEC.md §5). */
import type { ProductVersion } from "#contract/responses";
import type { ProductVersionBody } from "#contract/schemas";

export interface ProductVersionFormValues {
  name: string;
  description: string;
  eventsLimit: string;
  websitesLimit: string;
  dynamicContentLimit: string;
  price: string;
  paypalPlanId: string;
  isDefault: boolean;
}

/** The inputs for a new version (all empty) or for editing `version` (an unlimited null shows as empty). */
export function toFormValues(version: ProductVersion | null): ProductVersionFormValues {
  const text = (value: string | number | null | undefined) =>
    value === null || value === undefined ? "" : String(value);
  return {
    name: version?.name ?? "",
    description: text(version?.description),
    eventsLimit: text(version?.eventsLimit),
    websitesLimit: text(version?.websitesLimit),
    dynamicContentLimit: text(version?.dynamicContentLimit),
    price: text(version?.price),
    paypalPlanId: text(version?.paypalPlanId),
    isDefault: version?.isDefault ?? false,
  };
}

/** An integer as `parseInt` reads it; empty or non-numeric input is null (for a limit: unlimited). */
export function parseWholeNumber(text: string): number | null {
  const value = Number.parseInt(text.trim(), 10);
  return Number.isNaN(value) ? null : value;
}

/**
 * A price in dollars and cents as typed (`29.99`, `29,99`, `29`), to the cent; empty or non-numeric input is null
 * (no price). The API keeps it as exact cents.
 */
export function parsePrice(text: string): number | null {
  const value = Number.parseFloat(text.trim().replace(",", "."));
  return Number.isFinite(value) ? Math.round(value * 100) / 100 : null;
}

/** Empty text is sent as null rather than "". */
function optionalText(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : trimmed;
}

/** The body of POST /api/admin/product-versions and PATCH /api/admin/product-versions/:id. */
export function toProductVersionBody(values: ProductVersionFormValues): ProductVersionBody {
  return {
    name: values.name,
    description: optionalText(values.description),
    eventsLimit: parseWholeNumber(values.eventsLimit),
    websitesLimit: parseWholeNumber(values.websitesLimit),
    dynamicContentLimit: parseWholeNumber(values.dynamicContentLimit),
    price: parsePrice(values.price),
    paypalPlanId: optionalText(values.paypalPlanId),
    isDefault: values.isDefault,
  };
}
