import { useQuery } from "@tanstack/react-query";
import type { PayPalClientConfig } from "#contract/responses";
import { getJson } from "@/lib/api";

export const paypalConfigKeys = { all: ["paypal-config"] as const };

/** GET /api/paypal/config (public): the client id (null when PayPal is not configured) and the SDK address. */
export function usePayPalConfig() {
  return useQuery({
    queryKey: paypalConfigKeys.all,
    queryFn: () => getJson<PayPalClientConfig>("/api/paypal/config"),
  });
}
