import type { AnalyticsHealth } from "#contract/responses";

const minutes = (seconds: number) => Math.floor(seconds / 60);

/** Counting is called behind once its oldest waiting view is older than this (the fold runs every minute). */
const BEHIND_SECONDS = 10 * 60;

const viewsAndGoals = (n: number) =>
  n === 1 ? "1 page view or goal" : `${n.toLocaleString("en-US")} page views and goals`;

/** What the last days could not count, by reason: "12 refused by the queue, 3 too old to count exactly". */
function lostParts(lost: AnalyticsHealth["lost"]): string {
  const sum = (reason: string) => lost.filter((l) => l.reason === reason).reduce((n, l) => n + l.items, 0);
  const parts = [
    [sum("enqueue"), "refused by the queue"],
    [sum("too-old"), "too old to count exactly (kept in the archive)"],
  ] as const;
  return parts
    .filter(([n]) => n > 0)
    .map(([n, why]) => `${n.toLocaleString("en-US")} ${why}`)
    .join(", ");
}

/**
 * Whether page views are being counted (docs/analytics.md, "When a fold fails"): nothing while they are; otherwise a
 * line each for customers whose events were set aside (with why), a handoff that keeps failing, a backlog, and what
 * the last 7 days could not count.
 */
export function AnalyticsHealthNotice({ health }: { health: AnalyticsHealth }) {
  const { quarantined, quarantinedCustomers, failingHandoff, oldestPendingSeconds, lost } = health;
  const behind = oldestPendingSeconds !== null && oldestPendingSeconds >= BEHIND_SECONDS;
  const lostItems = lost.reduce((n, l) => n + l.items, 0);
  if (quarantinedCustomers === 0 && !failingHandoff && !behind && lostItems === 0) return null;
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
      {lostItems > 0 && (
        <p>
          {viewsAndGoals(lostItems)} of the last 7 days could not be counted: {lostParts(lost)}.
        </p>
      )}
    </div>
  );
}
