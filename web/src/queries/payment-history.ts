import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { PaymentHistoryItem } from "#contract/responses";
import { getPage } from "@/lib/api";
import { PAGE_SIZE } from "@/hooks/use-page";

export const paymentHistoryKeys = {
  all: ["user", "payment-history"] as const,
  page: (offset: number) => [...paymentHistoryKeys.all, offset] as const,
};

/** A page of the signed-in customer's payments, newest first. */
export function usePaymentHistory(offset = 0) {
  return useQuery({
    queryKey: paymentHistoryKeys.page(offset),
    queryFn: () =>
      getPage<PaymentHistoryItem>("/api/user/payment-history", { limit: PAGE_SIZE, offset: offset || undefined }),
    placeholderData: keepPreviousData,
  });
}
