/**
 * @module Experiment results by segment (docs/experiments.md, "Results by segment"): the visitor's device, country
 * and referrer type at their first view of an experiment, as delivery reads them for audiences. A page view that
 * exposes a visitor carries them as one short code (`encodeSegment`), and the fold counts per value: a closed set
 * per dimension (3 devices, the ISO countries, 6 referrer types), so an experiment's segment rows stay bounded.
 */
import type { AudienceAttributes, Device } from "./audiences";
import type { SegmentDimension } from "./experiments";
import type { ReferrerType } from "./referrers";

/** Segment values shown at most per dimension, by visitors; the rest are summed as `OTHER_SEGMENTS`. */
export const TOP_SEGMENTS = 10;
export const OTHER_SEGMENTS = "other";
/** The country of a visitor whose country is not known. */
export const UNKNOWN_COUNTRY = "unknown";

// One code per device and referrer type: a new one cannot go without its code.
const DEVICE_CODES = { mobile: "m", tablet: "t", desktop: "d" } as const satisfies Record<Device, string>;
const REFERRER_CODES = {
  search: "s",
  social: "o",
  ai: "a",
  email: "e",
  direct: "d",
  other: "x",
} as const satisfies Record<ReferrerType, string>;
const NO_COUNTRY = "--";

/** Four characters: the device's code, the referrer type's, and the country (`--` unknown). */
export function encodeSegment(attributes: Pick<AudienceAttributes, "device" | "referrer" | "country">): string {
  const country = attributes.country && /^[A-Z]{2}$/.test(attributes.country) ? attributes.country : NO_COUNTRY;
  return `${DEVICE_CODES[attributes.device]}${REFERRER_CODES[attributes.referrer]}${country}`;
}

const byCode = <T extends string>(codes: Record<T, string>) =>
  new Map(Object.entries<string>(codes).map(([name, code]) => [code, name]));
const DEVICE_NAMES = byCode(DEVICE_CODES);
const REFERRER_NAMES = byCode(REFERRER_CODES);

/** A stored segment value as the results name it: the device or referrer type's name, the country's code. */
export function segmentName(dimension: SegmentDimension, stored: string): string {
  if (dimension === "device") return DEVICE_NAMES.get(stored) ?? OTHER_SEGMENTS;
  if (dimension === "referrer") return REFERRER_NAMES.get(stored) ?? OTHER_SEGMENTS;
  return stored === NO_COUNTRY ? UNKNOWN_COUNTRY : stored;
}
