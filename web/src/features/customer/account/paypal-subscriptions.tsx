/**
 * @module The PayPal SDK around the plan cards: one `PayPalScriptProvider` (so one SDK script) for all of
 * them, and a context telling each card's `PlanSubscribeSlot` whether to render buttons, for which user, and which
 * approved subscription is still to be stored. Only the lazily loaded plan dialog imports this, so the SDK wrapper
 * stays out of the main bundle.
 */
import { PayPalScriptProvider, type ReactPayPalScriptOptions } from "@paypal/react-paypal-js";
import { createContext, useContext, type ReactNode } from "react";
import { usePayPalConfig } from "@/queries/paypal-config";
import { useUserDashboard } from "@/queries/user-dashboard";

/** A subscription PayPal approved that could not be stored (PayPal or the server out of reach): retried as it is. */
export interface UnstoredApproval {
  subscriptionId: string;
  /** The product version whose card it was approved in. */
  planVersionId: number;
}

interface PayPalSubscriptionsState {
  /** The signed-in customer's id: PayPal's `custom_id`, which the server checks when storing the subscription. */
  userId: string;
  unstored: UnstoredApproval | null;
  setUnstored: (approval: UnstoredApproval | null) => void;
}

const PayPalSubscriptionsContext = createContext<PayPalSubscriptionsState | null>(null);

/** Null while the config loads, when PayPal is not configured (no client id) or the customer is unknown. */
export function usePayPalSubscriptions(): PayPalSubscriptionsState | null {
  return useContext(PayPalSubscriptionsContext);
}

/**
 * The SDK's script options: subscriptions need `vault` and `intent`; `sdkBaseUrl` is the server's SDK address,
 * `currency` the billing currency (PayPal's default, USD, when the server names none).
 */
export function paypalScriptOptions(clientId: string, sdkUrl: string, currency?: string): ReactPayPalScriptOptions {
  return { clientId, vault: true, intent: "subscription", sdkBaseUrl: sdkUrl, ...(currency ? { currency } : {}) };
}

export function PayPalSubscriptions({
  unstored,
  setUnstored,
  children,
}: Pick<PayPalSubscriptionsState, "unstored" | "setUnstored"> & { children: ReactNode }) {
  const config = usePayPalConfig();
  const dashboard = useUserDashboard();
  const clientId = config.data?.clientId;
  const userId = dashboard.data?.userId;

  if (!config.data || !clientId || !userId) return children;
  return (
    <PayPalScriptProvider options={paypalScriptOptions(clientId, config.data.sdkUrl, config.data.currency)}>
      <PayPalSubscriptionsContext.Provider value={{ userId, unstored, setUnstored }}>
        {children}
      </PayPalSubscriptionsContext.Provider>
    </PayPalScriptProvider>
  );
}
