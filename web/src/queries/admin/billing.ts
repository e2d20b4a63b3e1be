/**
 * @module The billing dashboard's calls (SPEC.md §7, docs/api.md "Billing"). Every key starts with
 * `adminBillingKeys.all`, so an email change refreshes every filtered list and every cached detail at once.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  MessageResponse,
  Transaction,
  TransactionDetail,
  UnclaimedSubscription,
  UpdateTransactionEmailResponse,
} from "#contract/responses";
import type { transactionFilters } from "#contract/schemas";
import { ApiError, apiJson, describeError, getJson, getPage } from "@/lib/api";
import { getApiKey } from "@/lib/storage";
import { toast } from "@/lib/toast";
import { adminUserKeys } from "./keys";
import { PAGE_SIZE } from "@/hooks/use-page";

/** The list's filters: ISO dates, status and email as case-insensitive substrings; absent = no filter. */
export type TransactionQuery = Omit<z.input<typeof transactionFilters>, "limit" | "offset">;

export const adminBillingKeys = {
  all: ["admin", "billing"] as const,
  transactions: (query: TransactionQuery, offset: number) =>
    [...adminBillingKeys.all, "transactions", query, offset] as const,
  detail: (transactionId: string) => [...adminBillingKeys.all, "transaction", transactionId] as const,
  unclaimed: (offset: number) => [...adminBillingKeys.all, "unclaimed", offset] as const,
};

const transactionPath = (transactionId: string) =>
  `/api/admin/billing/transaction/${encodeURIComponent(transactionId)}`;

/** `?startDate=…&status=…`, or "" without filters; empty values are left out. */
export function transactionQueryString(query: TransactionQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * GET /api/admin/billing/transactions with the filters, a page. Each filter set and page is its own cache entry;
 * while a new one loads the previous rows stay on screen (`isPlaceholderData`). The screen reports a failure itself.
 */
export function useAdminTransactions(query: TransactionQuery, offset = 0) {
  return useQuery({
    queryKey: adminBillingKeys.transactions(query, offset),
    queryFn: () =>
      getPage<Transaction>(`/api/admin/billing/transactions${transactionQueryString(query)}`, {
        limit: PAGE_SIZE,
        offset: offset || undefined,
      }),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/** The most rows one request of the list answers; an export asks page after page of this size. */
const EXPORT_PAGE = 1_000;

/** Every transaction of the filters (for the export), a page of the server's largest size at a time. */
export async function fetchAllTransactions(query: TransactionQuery): Promise<Transaction[]> {
  const rows: Transaction[] = [];
  for (;;) {
    const page = await getPage<Transaction>(`/api/admin/billing/transactions${transactionQueryString(query)}`, {
      limit: EXPORT_PAGE,
      offset: rows.length || undefined,
    });
    rows.push(...page.rows);
    if (page.rows.length === 0 || rows.length >= page.total) return rows;
  }
}

/** GET /api/admin/billing/transaction/:id (PayPal's transaction id). The screen reports a failure itself. */
export function useTransactionDetail(transactionId: string) {
  return useQuery({
    queryKey: adminBillingKeys.detail(transactionId),
    queryFn: () => getJson<TransactionDetail>(transactionPath(transactionId)),
    meta: { silent: true },
  });
}

export const EMAIL_UPDATE_FAILED = "Failed to update email";
export const AUTHENTICATION_REQUIRED = "Authentication required";

/**
 * SPEC.md §8: the server's `error`; 'Failed to update email' when its body has none (or the call never got
 * an answer); 'Failed to update email (status NNN)' when the body is not JSON at all.
 */
export function emailUpdateErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    try {
      JSON.parse(error.bodyText);
      return EMAIL_UPDATE_FAILED;
    } catch {
      return `${EMAIL_UPDATE_FAILED} (status ${error.status})`;
    }
  }
  if (error instanceof Error && error.message === AUTHENTICATION_REQUIRED) return AUTHENTICATION_REQUIRED;
  return EMAIL_UPDATE_FAILED;
}

/**
 * What the correction linked (SPEC.md §8's text when the corrected email found the account): the payment stays with
 * the holder of its subscription, goes to the account with the corrected email, or to none.
 */
export function linkedDescription(linked: UpdateTransactionEmailResponse["linked"]): string {
  if (!linked) return "No user account has this email: the transaction is linked to none.";
  if (linked.by === "subscription") {
    return `The transaction stays with ${linked.email}, who holds its subscription.`;
  }
  return "The transaction has been linked to the new user account.";
}

/**
 * PATCH /api/admin/billing/transaction/:id/update-email. Needs a stored key (else 'Authentication required',
 * nothing sent). Success refreshes the billing lists and details and the users console (which shows a
 * user's transactions and the latest one's profile status).
 */
export function useUpdateTransactionEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ transactionId, email }: { transactionId: string; email: string }) => {
      if (!getApiKey()) return Promise.reject(new Error(AUTHENTICATION_REQUIRED));
      return apiJson<UpdateTransactionEmailResponse>("PATCH", `${transactionPath(transactionId)}/update-email`, {
        email,
      });
    },
    meta: { silent: true },
    onSuccess: ({ transaction, linked }, { transactionId }) => {
      toast({ title: "Email updated successfully", description: linkedDescription(linked) });
      queryClient.setQueryData(adminBillingKeys.detail(transactionId), transaction);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminBillingKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
      ]);
    },
    onError: (error) => {
      toast({ variant: "destructive", title: EMAIL_UPDATE_FAILED, description: emailUpdateErrorMessage(error) });
    },
  });
}

const UNCLAIMED_PATH = "/api/admin/billing/unclaimed-subscriptions";

/**
 * GET /api/admin/billing/unclaimed-subscriptions, a page: the subscriptions PayPal charges that no account stores.
 * The billing screen and the overview's notice share it (one cache entry); a failure toasts as usual.
 */
export function useUnclaimedSubscriptions(offset = 0) {
  return useQuery({
    queryKey: adminBillingKeys.unclaimed(offset),
    queryFn: () => getPage<UnclaimedSubscription>(UNCLAIMED_PATH, { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
  });
}

export type UnclaimedAction = "link" | "cancel";

const ACTION_TITLES: Record<UnclaimedAction, { done: string; failed: string }> = {
  link: { done: "Subscription linked", failed: "Failed to link subscription" },
  cancel: { done: "Subscription cancelled", failed: "Failed to cancel subscription" },
};

/**
 * POST …/unclaimed-subscriptions/:id/link or …/cancel. Toasts the server's words either way; success refreshes the
 * billing lists and the users console (the linked customer's plan and transactions).
 */
export function useUnclaimedSubscriptionAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ subscriptionId, action }: { subscriptionId: string; action: UnclaimedAction }) =>
      apiJson<MessageResponse>("POST", `${UNCLAIMED_PATH}/${encodeURIComponent(subscriptionId)}/${action}`),
    meta: { silent: true },
    onSuccess: ({ message }, { action }) => {
      toast({ title: ACTION_TITLES[action].done, description: message });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: adminBillingKeys.all }),
        queryClient.invalidateQueries({ queryKey: adminUserKeys.all }),
      ]);
    },
    onError: (error, { action }) =>
      toast({ variant: "destructive", title: ACTION_TITLES[action].failed, description: describeError(error) }),
  });
}
