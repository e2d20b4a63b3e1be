/** @module One analytics message per content request: what the queue carries to the consumer. */
export interface AnalyticsMessage {
  /** Unique per request: a redelivered message is recognised by it. */
  id: string;
  userId: string;
  /** The page URL without its hash. */
  url: string;
  /** The mapping that matched, if any. */
  mappingId: number | null;
  /** Whether HTML was delivered. */
  delivered: boolean;
  timestamp: number;
  userAgent: string | null;
  referer: string | null;
  /**
   * Who viewed, as a salted hash of the day and the visitor's address (delivery/page-view.ts `visitorId`); null
   * when the address is not known (local development), and absent in messages sent before visitors were named.
   */
  visitor?: string | null;
}
