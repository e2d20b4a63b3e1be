import type { AnalyticsHealth } from "#contract/responses";

const minutes = (seconds: number) => Math.floor(seconds / 60);

/** Counting is called behind once its oldest waiting view is older than this (the fold runs every minute). */
const BEHIND_SECONDS = 10 * 60;

/**
 * Whether page views are being counted (docs/analytics.md, "When a fold fails"): nothing while they are; otherwise a
 * line each for customers whose events were set aside (with why), a handoff that keeps failing, and a backlog.
 */
export function AnalyticsHealthNotice({ health }: { health: AnalyticsHealth }) {
  const { quarantined, quarantinedCustomers, failingHandoff, oldestPendingSeconds } = health;
  const behind = oldestPendingSeconds !== null && oldestPendingSeconds >= BEHIND_SECONDS;
  if (quarantinedCustomers === 0 && !failingHandoff && !behind) return null;
  return (
    <div role="alert" aria-label="Page view counting" className="space-y-1 rounded-md border p-4 text-sm">
      {quarantinedCustomers > 0 && (
        <p>
          Page views of {quarantinedCustomers} customer{quarantinedCustomers === 1 ? "" : "s"} are set aside because
          counting them fails:{" "}
          {quarantined
            .map(
              (q) =>
                `${q.email} (${q.views} views, ${q.retrying ? "retried automatically" : "waiting for release"}: ${q.reason})`,
            )
            .join("; ")}
        </p>
      )}
      {failingHandoff && (
        <p>
          Handing page views to the reducers failed {failingHandoff.failures} time
          {failingHandoff.failures === 1 ? "" : "s"}: {failingHandoff.lastError ?? "no reason given"}
        </p>
      )}
      {behind && (
        <p>Counting is behind: the oldest waiting page view is {minutes(oldestPendingSeconds)} minutes old.</p>
      )}
    </div>
  );
}
