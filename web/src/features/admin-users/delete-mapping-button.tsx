import { Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useDeleteAdminMapping } from "@/queries/admin-mappings";

/** Deletes one mapping (event) of any customer. */
export function DeleteMappingButton({ mappingId, url }: { mappingId: number; url: string }) {
  const deleteMapping = useDeleteAdminMapping();
  return (
    <Button
      type="button"
      variant="destructive"
      size="sm"
      aria-label={`Event ${mappingId} (${url}) löschen`}
      disabled={deleteMapping.isPending}
      onClick={() => deleteMapping.mutate(mappingId)}
    >
      <Trash2 aria-hidden="true" />
      Löschen
    </Button>
  );
}
