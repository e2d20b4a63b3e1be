import { Trash2 } from "lucide-react";
import type { Mapping } from "#contract/responses";
import { Button } from "@/components/ui/button";
import { useDeleteAdminMapping } from "@/queries/admin/mappings";

/** Deletes one mapping (event) of any customer. */
export function DeleteMappingButton({ mapping }: { mapping: Pick<Mapping, "id" | "url" | "publishedAt"> }) {
  const deleteMapping = useDeleteAdminMapping();
  return (
    <Button
      type="button"
      variant="destructive"
      size="sm"
      aria-label={`Event ${mapping.id} (${mapping.url}) löschen`}
      disabled={deleteMapping.isPending}
      onClick={() => deleteMapping.mutate(mapping)}
    >
      <Trash2 aria-hidden="true" />
      Löschen
    </Button>
  );
}
