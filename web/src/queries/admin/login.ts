import { useMutation } from "@tanstack/react-query";
import type { AdminLoginResponse } from "#contract/responses";
import type { adminLoginBody } from "#contract/schemas";
import type { z } from "zod";
import { apiJson } from "@/lib/api";

export type AdminCredentials = z.infer<typeof adminLoginBody>;

/** POST /api/admin/login; a failure toasts the server's message or 'Login failed'. */
export function useAdminLogin() {
  return useMutation({
    mutationFn: (credentials: AdminCredentials) => apiJson<AdminLoginResponse>("POST", "/api/admin/login", credentials),
    meta: { errorMessage: "Login failed" },
  });
}
