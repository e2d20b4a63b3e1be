import type { Mapping } from "../../../../worker/contract/responses";
import { Button } from "@/components/ui/button";
import { useDeleteMapping } from "@/queries/mappings";

/**
 * A row's one action, Remove (SPEC.md §2). The API can also publish and unpublish a mapping, but SPEC.md §4
 * shows no UI for that, so there is none here.
 */
export function MappingRowActions({ mapping }: { mapping: Mapping }) {
  const deleteMapping = useDeleteMapping();

  return (
    <Button
      variant="destructive"
      size="sm"
      disabled={deleteMapping.isPending}
      onClick={() => deleteMapping.mutate(mapping.id)}
    >
      Remove
    </Button>
  );
}
