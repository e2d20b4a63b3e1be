import { LoadError, Loading } from "@/components/loading";
import { searchMappings } from "@/features/dashboard/search-mappings";
import { useAdminMappings } from "@/queries/admin-mappings";
import { EventsTable } from "./events-table";

export function EventsDataTable({ searchTerm }: { searchTerm: string }) {
  const mappings = useAdminMappings();

  if (mappings.isPending) return <Loading />;
  if (mappings.isError) return <LoadError>Error loading events</LoadError>;
  return <EventsTable mappings={searchMappings(mappings.data, searchTerm)} />;
}
