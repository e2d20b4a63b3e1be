import type { AdminUser } from "#contract/responses";

export interface VersionLimits {
  websites: number | null;
  events: number | null;
  deliveries: number | null;
}

/** The limits that hold for the user (null: unlimited): their version's, or the admin's per-user ones. */
export function versionLimits(user: AdminUser): VersionLimits {
  return { websites: user.uniqueUrlLimit, events: user.eventsLimit, deliveries: user.dynamicContentLimit };
}
