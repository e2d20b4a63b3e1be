import { useQuery } from "@tanstack/react-query";
import type { ProductVersion } from "#contract/responses";
import { getJson } from "@/lib/api";

export const productVersionKeys = { all: ["product-versions"] as const };

/** Every plan (product version), the default one included. */
export function useProductVersions() {
  return useQuery({
    queryKey: productVersionKeys.all,
    queryFn: () => getJson<ProductVersion[]>("/api/product-versions"),
  });
}
