/**
 * @module The admin console's user calls (SPEC.md §7 "Admin calls", docs/api.md "Admin console"); their keys are
 * `adminUserKeys` (`./admin-keys`).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  AdminMapping,
  AdminUser,
  AdminUserDetail,
  ApiKeyResponse,
  MappingGroup,
  MessageResponse,
  Transaction,
  Website,
} from "#contract/responses";
import { apiJson, describeError, getJson, getPage, withServerReason } from "@/lib/api";
import { toast } from "@/lib/toast";
import { adminAuditKeys, adminMappingKeys, adminUserKeys, type AdminUsersQuery } from "./keys";
import { statsKeys } from "../stats";
import { userDashboardKeys } from "../user-dashboard";
import { PAGE_SIZE } from "@/hooks/use-page";

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

/** GET /api/admin/users: a page of users with usage and limits, newest first unless sorted otherwise. */
export function useAdminUsers(query: AdminUsersQuery = {}) {
  return useQuery({
    queryKey: adminUserKeys.list(query),
    queryFn: () => getPage<AdminUser>("/api/admin/users", { limit: PAGE_SIZE, ...query }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/users/:userId: one user with api key and mappings. The screen reports a failure itself. */
export function useAdminUser(userId: string) {
  return useQuery({
    queryKey: adminUserKeys.detail(userId),
    queryFn: () => getJson<AdminUserDetail>(userPath(userId)),
    meta: { silent: true },
  });
}

/** GET /api/admin/users/:userId/transactions, a page. The tab shows 'Error loading transactions' itself. */
export function useAdminUserTransactions(userId: string, offset = 0) {
  return useQuery({
    queryKey: adminUserKeys.transactions(userId, offset),
    queryFn: () =>
      getPage<Transaction>(`${userPath(userId)}/transactions`, { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/** GET /api/admin/users/:userId/mapping-groups: the user's mappings by URL (ignoring case and scheme), a page. */
export function useMappingGroups(userId: string, offset = 0) {
  return useQuery({
    queryKey: adminUserKeys.groups(userId, offset),
    queryFn: () =>
      getPage<MappingGroup>(`${userPath(userId)}/mapping-groups`, { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/users/:userId/mappings?url=: one group's events, newest first, a page; asked for when opened. */
export function useGroupEvents(userId: string, url: string, offset = 0) {
  return useQuery({
    queryKey: adminUserKeys.groupEvents(userId, url, offset),
    queryFn: () =>
      getPage<AdminMapping>(`${userPath(userId)}/mappings`, { limit: PAGE_SIZE, url, offset: offset || undefined }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/users/:userId/websites: the user's website claims, pending and proven, a page. */
export function useUserWebsites(userId: string, offset = 0) {
  return useQuery({
    queryKey: adminUserKeys.websites(userId, offset),
    queryFn: () => getPage<Website>(`${userPath(userId)}/websites`, { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
  });
}

/** DELETE /api/admin/users/:userId/websites/:hostname: the claim goes, and the hostname is no longer served. */
export function useReleaseUserWebsite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, hostname }: { userId: string; hostname: string }) =>
      apiJson<MessageResponse>("DELETE", `${userPath(userId)}/websites/${encodeURIComponent(hostname)}`),
    onSuccess: () => {
      toast({ title: "Erfolg", description: "Der Hostname wurde freigegeben." });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminAuditKeys.all }),
      ]);
    },
  });
}

function useInvalidateAdminUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all });
}

/** PATCH /api/admin/users/:userId/status. */
export function useSetUserStatus() {
  const invalidate = useInvalidateAdminUsers();
  return useMutation({
    mutationFn: ({ userId, isActive }: { userId: string; isActive: boolean }) =>
      apiJson<AdminUser>("PATCH", `${userPath(userId)}/status`, { isActive }),
    onSuccess: () => {
      toast({ title: "User status updated successfully" });
      return invalidate();
    },
  });
}

/** PATCH /api/admin/users/:userId/limits; null means unlimited. */
export function useSetRequestLimit() {
  const invalidate = useInvalidateAdminUsers();
  return useMutation({
    mutationFn: ({ userId, requestLimit }: { userId: string; requestLimit: number | null }) =>
      apiJson<AdminUser>("PATCH", `${userPath(userId)}/limits`, { requestLimit }),
    onSuccess: () => {
      toast({ title: "Request limit updated successfully" });
      return invalidate();
    },
  });
}

/** The admin's per-user limits that replace the plan's (null: the plan's, 0: unlimited). */
export type LimitOverrides = AdminUser["limitOverrides"];

/**
 * PATCH /api/admin/users/:userId/limits with per-user limits, toasting SPEC.md §8's 'Limits updated successfully';
 * the customer's dashboard (open while impersonating) shows the new limits too.
 */
export function useSetLimitOverrides() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, limits }: { userId: string; limits: Partial<LimitOverrides> }) =>
      apiJson<AdminUser>("PATCH", `${userPath(userId)}/limits`, limits),
    onSuccess: () => {
      toast({ title: "Limits updated successfully" });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: userDashboardKeys.all }),
      ]);
    },
  });
}

/**
 * PATCH /api/admin/users/:userId/limit with `{limit}` (null means unlimited). SPEC.md §7 has this call
 * "defined but unused": no screen calls it (the overview's field uses `useSetRequestLimit`). Its success
 * toast is SPEC.md §8's 'Limits updated successfully'.
 */
export function useSetUserLimit() {
  const invalidate = useInvalidateAdminUsers();
  return useMutation({
    mutationFn: ({ userId, limit }: { userId: string; limit: number | null }) =>
      apiJson<AdminUser>("PATCH", `${userPath(userId)}/limit`, { limit }),
    onSuccess: () => {
      toast({ title: "Limits updated successfully" });
      return invalidate();
    },
  });
}

/** PATCH /api/admin/users/:userId/email; German toasts, the failure with the server's message (SPEC.md §8). */
export function useUpdateUserEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, email }: { userId: string; email: string }) =>
      apiJson<AdminUser>("PATCH", `${userPath(userId)}/email`, { email }),
    onSuccess: () => {
      toast({ title: "Erfolg", description: "E-Mail-Adresse wurde erfolgreich aktualisiert" });
      // The events list shows each mapping's owner email.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminMappingKeys.all }),
      ]);
    },
    onError: (error) => toast({ variant: "destructive", title: "Fehler", description: describeError(error) }),
    meta: { silent: true },
  });
}

export const ASSIGN_VERSION_FAILED_PREFIX = "Failed to assign product version: ";

/**
 * POST /api/admin/users/:userId/product-version. Afterwards the admin users and the customer side's
 * dashboard and stats are refreshed (SPEC.md §7), as the limits they show come from the version.
 */
export function useAssignProductVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, versionId }: { userId: string; versionId: number }) =>
      apiJson<AdminUser>("POST", `${userPath(userId)}/product-version`, { versionId }),
    onSuccess: () => {
      toast({ title: "Product version assigned successfully" });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: userDashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: statsKeys.all }),
      ]);
    },
    onError: (error) =>
      toast({
        variant: "destructive",
        title: "Error",
        description: ASSIGN_VERSION_FAILED_PREFIX + describeError(error),
      }),
    meta: { silent: true },
  });
}

/** POST /api/admin/users/:userId/resend-api-key (SPEC.md §8's German toasts). */
export function useResendApiKey() {
  return useMutation({
    mutationFn: (userId: string) => apiJson<MessageResponse>("POST", `${userPath(userId)}/resend-api-key`),
    onSuccess: () => toast({ title: "E-Mail gesendet", description: "Der API-Key wurde erneut per E-Mail versendet." }),
    onError: (error) =>
      toast({
        variant: "destructive",
        title: "Fehler",
        description: withServerReason("Der API-Key konnte nicht erneut gesendet werden.", error),
      }),
    meta: { silent: true },
  });
}

/** POST /api/admin/users/:userId/revoke-api-key: the customer's key (and any impersonation of them) stops working. */
export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiJson<MessageResponse>("POST", `${userPath(userId)}/revoke-api-key`),
    onSuccess: () => {
      toast({ title: "API-Key widerrufen", description: "Der alte API-Key funktioniert nicht mehr." });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminAuditKeys.all }),
      ]);
    },
  });
}

/** POST /api/admin/users/:userId/resend-verification. */
export function useResendVerification() {
  return useMutation({
    mutationFn: (userId: string) => apiJson<MessageResponse>("POST", `${userPath(userId)}/resend-verification`),
    onSuccess: () => toast({ title: "Verification email sent successfully" }),
    onError: (error) =>
      toast({
        variant: "destructive",
        title: "Error",
        description: withServerReason("Failed to send verification email", error),
      }),
    meta: { silent: true },
  });
}

/** DELETE /api/admin/users/:userId: the account and all its data. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiJson<MessageResponse>("DELETE", userPath(userId)),
    onSuccess: () => {
      toast({ title: "User deleted successfully" });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminMappingKeys.all }),
      ]);
    },
  });
}

export const API_KEY_MISSING_MESSAGE = "API key is missing in the response";
export const apiKeyFetchFailedMessage = (email: string) => `Konnte API-Key für Benutzer ${email} nicht abrufen`;

class MissingApiKeyError extends Error {}

/**
 * GET /api/admin/users/:userIdOrEmail/api-key: first by email, and if that call fails, by user id (SPEC.md §7).
 * An answer without a key fails with 'API key is missing in the response'.
 */
export function useFetchUserApiKey() {
  return useMutation({
    mutationFn: async ({ userId, email }: { userId: string; email: string }) => {
      let answer: Partial<ApiKeyResponse> | null;
      try {
        answer = await apiJson<Partial<ApiKeyResponse> | null>("GET", `${userPath(email)}/api-key`);
      } catch {
        answer = await apiJson<Partial<ApiKeyResponse> | null>("GET", `${userPath(userId)}/api-key`);
      }
      if (!answer?.apiKey) throw new MissingApiKeyError(API_KEY_MISSING_MESSAGE);
      return answer.apiKey;
    },
    onError: (error, { email }) =>
      toast({
        variant: "destructive",
        title: "Fehler",
        description:
          error instanceof MissingApiKeyError
            ? API_KEY_MISSING_MESSAGE
            : withServerReason(apiKeyFetchFailedMessage(email), error),
      }),
    meta: { silent: true },
  });
}
