/**
 * @module The isolate's follower of the delivery change feed (worker/delivery/change-feed-follower.ts) with one lane
 * per simulated isolate (lanes.mts).
 */
import * as real from "../../../worker/delivery/change-feed-follower";
import { perLane } from "./lanes.mjs";

export * from "../../../worker/delivery/change-feed-follower";

export const ChangeFeedFollower = perLane(real.ChangeFeedFollower);
