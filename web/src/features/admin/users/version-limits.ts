import type { AdminUser } from "#contract/responses";

export interface VersionLimits {
  websites: number | null;
  events: number | null;
  deliveries: number | null;
}

/** The limits of the user's product version; without a version everything is unlimited (null). */
export function versionLimits(user: AdminUser): VersionLimits {
  if (user.productVersionId === null) return { websites: null, events: null, deliveries: null };
  return { websites: user.uniqueUrlLimit, events: user.eventsLimit, deliveries: user.dynamicContentLimit };
}
