import type { AdminUserDetail } from "#contract/responses";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { UsageChart } from "@/components/usage-chart";
import { COUNTS_LAG_NOTE_DE } from "@/lib/counts-note";
import { GeneralTab } from "./general-tab";
import { SnippetTab } from "./snippet-tab";
import { TransactionsTab } from "./transactions-tab";
import { WebsitesEventsTab } from "./websites-events-tab";

/**
 * The per-user tabs (SPEC.md §2's German variant; its Usage bars sit in the general tab), and the customer's
 * requests over time (Nutzung, docs/analytics.md).
 */
export function UserDetailTabs({ user }: { user: AdminUserDetail }) {
  return (
    <Tabs defaultValue="general">
      <TabsList className="h-auto flex-wrap">
        <TabsTrigger value="general">Allgemeine Informationen</TabsTrigger>
        <TabsTrigger value="websites">Webseiten &amp; Events</TabsTrigger>
        <TabsTrigger value="snippet">JavaScript Snippet</TabsTrigger>
        <TabsTrigger value="transactions">Transaktionen</TabsTrigger>
        <TabsTrigger value="usage">Nutzung</TabsTrigger>
      </TabsList>
      <TabsContent value="general">
        <GeneralTab user={user} />
      </TabsContent>
      <TabsContent value="websites">
        <WebsitesEventsTab user={user} />
      </TabsContent>
      <TabsContent value="snippet">
        <SnippetTab userId={user.userId} />
      </TabsContent>
      <TabsContent value="transactions">
        <TransactionsTab userId={user.userId} />
      </TabsContent>
      <TabsContent value="usage" className="space-y-2">
        <UsageChart seriesPath={`/api/admin/users/${encodeURIComponent(user.userId)}/timeseries`} lang="de" />
        <p className="text-xs text-muted-foreground">{COUNTS_LAG_NOTE_DE}</p>
      </TabsContent>
    </Tabs>
  );
}
