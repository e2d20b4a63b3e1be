import { Loading } from "@/components/loading";
import { useAdminOverview } from "@/queries/admin/overview";
import { AnalyticsHealthNotice } from "./analytics-health";
import { MailFailuresNotice } from "./mail-failures";
import { OverviewCards } from "./overview-cards";

/** SPEC.md §2 "Admin dashboard": the System Overview, a spinner while it loads; a failure toasts as usual. */
export function SystemOverview() {
  const overview = useAdminOverview();

  return (
    <section aria-labelledby="system-overview-title" className="space-y-4">
      <h2 id="system-overview-title" className="text-2xl font-semibold">
        System Overview
      </h2>
      {overview.isPending ? (
        <Loading />
      ) : overview.data ? (
        <>
          <OverviewCards overview={overview.data} />
          {overview.data.analytics && <AnalyticsHealthNotice health={overview.data.analytics} />}
          {overview.data.mailFailures && <MailFailuresNotice failures={overview.data.mailFailures} />}
        </>
      ) : (
        <p className="text-sm text-muted-foreground">The overview could not be loaded.</p>
      )}
    </section>
  );
}
