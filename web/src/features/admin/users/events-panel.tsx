import { useState } from "react";
import { Card, CardContent } from "@/components/ui/card";
import { EventsDataTable } from "./events-data-table";
import { SearchBox } from "./search-box";

/** The 'Event-Verwaltung' tab: every customer's mappings, searchable by URL and HTML content. */
export function EventsPanel() {
  const [searchTerm, setSearchTerm] = useState("");
  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        <SearchBox value={searchTerm} onChange={setSearchTerm} placeholder="Suche nach URL oder HTML-Content..." />
        <EventsDataTable searchTerm={searchTerm} />
      </CardContent>
    </Card>
  );
}
