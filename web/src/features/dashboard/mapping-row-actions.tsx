import type { Mapping } from "../../../../worker/contract/responses";
import { Button } from "@/components/ui/button";
import { useDeleteMapping, useSetMappingStatus } from "@/queries/mappings";

export function MappingRowActions({ mapping }: { mapping: Mapping }) {
  const deleteMapping = useDeleteMapping();
  const setStatus = useSetMappingStatus();
  const isPublished = mapping.publishedAt !== null;

  return (
    <div className="flex gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={setStatus.isPending}
        onClick={() => setStatus.mutate({ id: mapping.id, status: isPublished ? "unpublished" : "published" })}
      >
        {isPublished ? "Unpublish" : "Publish"}
      </Button>
      <Button
        variant="destructive"
        size="sm"
        disabled={deleteMapping.isPending}
        onClick={() => deleteMapping.mutate(mapping.id)}
      >
        Remove
      </Button>
    </div>
  );
}
