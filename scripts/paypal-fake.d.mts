export interface PayPalFake {
  url: string;
  sdkUrl: string;
  received: Buffer[];
  close(): Promise<void>;
}
export function startPayPalFake(port?: number, host?: string, sdkScript?: string): Promise<PayPalFake>;
