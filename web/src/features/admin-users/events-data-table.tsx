import { searchMappings } from "@/features/dashboard/search-mappings";
import { useAdminMappings } from "@/queries/admin-mappings";
import { EventsTable } from "./events-table";
import { Loading } from "./loading";

export function EventsDataTable({ searchTerm }: { searchTerm: string }) {
  const mappings = useAdminMappings();

  if (mappings.isPending) return <Loading />;
  if (mappings.isError) return <p className="py-8 text-center text-destructive">Error loading events</p>;
  return <EventsTable mappings={searchMappings(mappings.data, searchTerm)} />;
}
