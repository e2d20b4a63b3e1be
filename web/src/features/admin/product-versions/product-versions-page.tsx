import { AdminHeader } from "@/features/admin/overview/admin-header";
import { ProductVersionsLayout } from "./product-versions-layout";

/** /admin/product-versions: the plans customers can be on, with their limits, price and PayPal plan. */
export function ProductVersionsPage() {
  return (
    <>
      <AdminHeader />
      <ProductVersionsLayout />
    </>
  );
}
