import { PagedRows } from "@/components/paged-rows";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { usePage } from "@/hooks/use-page";
import { useMappingRows } from "@/queries/mappings";
import { MappingsTable } from "./mappings-table";

/** The dashboard's mappings, one row per URL, a page at a time; the server groups and searches. */
export function MappingsDataTable({ searchTerm, hasApiKey }: { searchTerm: string; hasApiKey: boolean }) {
  const search = useDebouncedValue(searchTerm.trim());
  const page = usePage(search);
  const mappings = useMappingRows(search, page.offset);
  return (
    <PagedRows query={mappings} page={page}>
      {(rows) => <MappingsTable rows={rows} showActions={hasApiKey} />}
    </PagedRows>
  );
}
