import { Loading } from "@/components/loading";
import { useMappings } from "@/queries/mappings";
import { groupMappings } from "./group-mappings";
import { MappingsTable } from "./mappings-table";
import { searchMappings } from "./search-mappings";

export function MappingsDataTable({ searchTerm, hasApiKey }: { searchTerm: string; hasApiKey: boolean }) {
  const mappings = useMappings();

  if (mappings.isPending) return <Loading />;
  const rows = searchMappings(groupMappings(mappings.data ?? []), searchTerm);
  return <MappingsTable rows={rows} showActions={hasApiKey} />;
}
