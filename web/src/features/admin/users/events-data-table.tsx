import { PagedRows } from "@/components/paged-rows";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { usePage } from "@/hooks/use-page";
import { useAdminMappings } from "@/queries/admin/mappings";
import { EventsTable } from "./events-table";

/** Every customer's events a page at a time; the server searches URL and HTML once typing pauses. */
export function EventsDataTable({ searchTerm }: { searchTerm: string }) {
  const search = useDebouncedValue(searchTerm.trim());
  const page = usePage(search);
  const mappings = useAdminMappings(search, page.offset);
  return (
    <PagedRows query={mappings} page={page} loadError="Error loading events">
      {(rows) => <EventsTable mappings={rows} />}
    </PagedRows>
  );
}
