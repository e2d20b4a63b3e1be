import { Spinner } from "@/components/ui/spinner";
import { useMappings } from "@/queries/mappings";
import { groupMappings } from "./group-mappings";
import { MappingsTable } from "./mappings-table";
import { searchMappings } from "./search-mappings";

export function MappingsDataTable({ searchTerm, hasApiKey }: { searchTerm: string; hasApiKey: boolean }) {
  const mappings = useMappings();

  if (mappings.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  const rows = searchMappings(groupMappings(mappings.data ?? []), searchTerm);
  return <MappingsTable rows={rows} showActions={hasApiKey} />;
}
