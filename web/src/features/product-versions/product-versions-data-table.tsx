import type { ProductVersion } from "../../../../worker/contract/responses";
import { Spinner } from "@/components/ui/spinner";
import { useAdminProductVersions } from "@/queries/admin-product-versions";
import { ProductVersionsTable } from "./product-versions-table";

/** The versions in the server's order; a failure toasts (query cache) and leaves a short note. */
export function ProductVersionsDataTable({ onEdit }: { onEdit: (version: ProductVersion) => void }) {
  const versions = useAdminProductVersions();

  if (versions.isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (versions.isError) {
    return <p className="py-8 text-center text-sm text-muted-foreground">The product versions could not be loaded.</p>;
  }
  return <ProductVersionsTable versions={versions.data} onEdit={onEdit} />;
}
