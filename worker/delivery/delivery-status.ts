/**
 * @module What the answer to a change says of its delivery: saved but not live yet (the delivery store refused the
 * write; the repairs retry it), or live here now and everywhere by a given time (docs/scaling.md).
 */
import type { Context } from "hono";
import { DELIVERY_EVERYWHERE_BY_HEADER, DELIVERY_PENDING_HEADER } from "#contract/responses";
import { PROPAGATION_MS } from "./store";

export function reportDelivery(c: Context, written: boolean, now = Date.now()): void {
  if (written) c.header(DELIVERY_EVERYWHERE_BY_HEADER, new Date(now + PROPAGATION_MS).toISOString());
  else c.header(DELIVERY_PENDING_HEADER, "1");
}
