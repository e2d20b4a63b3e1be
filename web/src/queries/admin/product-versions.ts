import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessageResponse, ProductVersion } from "#contract/responses";
import type { ProductVersionBody } from "#contract/schemas";
import { apiJson, getJson } from "@/lib/api";
import { toast } from "@/lib/toast";
import { adminUserKeys } from "./keys";
import { productVersionKeys } from "../product-versions";

export const adminProductVersionKeys = { all: ["admin", "product-versions"] as const };

/** GET /api/admin/product-versions: every product version, the default one included. */
export function useAdminProductVersions() {
  return useQuery({
    queryKey: adminProductVersionKeys.all,
    queryFn: () => getJson<ProductVersion[]>("/api/admin/product-versions"),
  });
}

/** Admin and customer version lists and the admin users screens (version names, limits) all show versions. */
function useInvalidateVersionLists() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminProductVersionKeys.all }),
      queryClient.invalidateQueries({ queryKey: productVersionKeys.all }),
      queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
    ]);
}

/** POST /api/admin/product-versions. */
export function useCreateProductVersion() {
  const invalidate = useInvalidateVersionLists();
  return useMutation({
    mutationFn: (body: ProductVersionBody) => apiJson<ProductVersion>("POST", "/api/admin/product-versions", body),
    onSuccess: () => {
      toast({ title: "Product version created successfully" });
      return invalidate();
    },
  });
}

/** PATCH /api/admin/product-versions/:id with the whole form. */
export function useUpdateProductVersion() {
  const invalidate = useInvalidateVersionLists();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ProductVersionBody }) =>
      apiJson<ProductVersion>("PATCH", `/api/admin/product-versions/${id}`, body),
    onSuccess: () => {
      toast({ title: "Product version updated successfully" });
      return invalidate();
    },
  });
}

/** DELETE /api/admin/product-versions/:id; the server moves its users to the default version. */
export function useDeleteProductVersion() {
  const invalidate = useInvalidateVersionLists();
  return useMutation({
    mutationFn: (id: number) => apiJson<MessageResponse>("DELETE", `/api/admin/product-versions/${id}`),
    onSuccess: () => {
      toast({ title: "Product version deleted successfully" });
      return invalidate();
    },
  });
}
