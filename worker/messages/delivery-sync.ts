/**
 * @module The delivery queue's contract: ranges of one customer's URL entries to write again, sent by a bulk change
 * (delivery/repairs.ts `syncUrlsSoon`) and written by its consumer (`consumeDeliverySyncs`).
 */
import type { RepairTarget } from "../models/delivery-repairs";

/** The queue's name in wrangler.toml. */
export const DELIVERY_QUEUE_NAME = "dynamic-content-delivery";

/** A range of one customer's URL repairs for a consumer of the delivery queue to carry out. */
export interface DeliverySyncMessage {
  userId: string;
  first: RepairTarget;
  last: RepairTarget;
}
