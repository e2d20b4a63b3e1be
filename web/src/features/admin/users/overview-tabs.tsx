import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { EventsPanel } from "./events-panel";
import { UsersPanel } from "./users-panel";

/** The top-level tabs: every user, and every customer's events (mappings). */
export function OverviewTabs({ onSelectUser }: { onSelectUser: (userId: string) => void }) {
  return (
    <Tabs defaultValue="users">
      <TabsList>
        <TabsTrigger value="users">Nutzerübersicht</TabsTrigger>
        <TabsTrigger value="events">Event-Verwaltung</TabsTrigger>
      </TabsList>
      <TabsContent value="users">
        <UsersPanel onSelectUser={onSelectUser} />
      </TabsContent>
      <TabsContent value="events">
        <EventsPanel />
      </TabsContent>
    </Tabs>
  );
}
