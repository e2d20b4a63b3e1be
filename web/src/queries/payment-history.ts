import { useQuery } from "@tanstack/react-query";
import type { PaymentHistoryItem } from "../../../worker/contract/responses";
import { getJson } from "@/lib/api";

export const paymentHistoryKeys = { all: ["user", "payment-history"] as const };

/** The signed-in customer's payments, newest first. */
export function usePaymentHistory() {
  return useQuery({
    queryKey: paymentHistoryKeys.all,
    queryFn: () => getJson<PaymentHistoryItem[]>("/api/user/payment-history"),
  });
}
