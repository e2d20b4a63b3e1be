export interface PayPalFake {
  /** The REST API's origin (PAYPAL_API_BASE). */
  apiBase: string;
  /** The IPN post-back address (PAYPAL_IPN_VERIFY_URL). */
  url: string;
  /** The browser SDK stand-in (PAYPAL_SDK_URL). */
  sdkUrl: string;
  /** Every IPN post-back body. */
  received: Buffer[];
  /** The subscriptions PayPal cancelled through the REST API, in order. */
  cancels: string[];
  subscriptions: Map<string, { id: string; status: string; plan_id: string; custom_id: string }>;
  close(): Promise<void>;
}
export const FAKE_RECEIVER: string;
export function startPayPalFake(options?: {
  port?: number;
  host?: string;
  plans?: Record<string, { value: string; currency?: string }>;
}): Promise<PayPalFake>;
