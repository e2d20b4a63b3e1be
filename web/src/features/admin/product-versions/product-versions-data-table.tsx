import type { ProductVersion } from "#contract/responses";
import { Loading } from "@/components/loading";
import { useAdminProductVersions } from "@/queries/admin/product-versions";
import { ProductVersionsTable } from "./product-versions-table";

/** The versions in the server's order; a failure toasts (query cache) and leaves a short note. */
export function ProductVersionsDataTable({ onEdit }: { onEdit: (version: ProductVersion) => void }) {
  const versions = useAdminProductVersions();

  if (versions.isPending) return <Loading />;
  if (versions.isError) {
    return <p className="py-8 text-center text-sm text-muted-foreground">The product versions could not be loaded.</p>;
  }
  return <ProductVersionsTable versions={versions.data} onEdit={onEdit} />;
}
