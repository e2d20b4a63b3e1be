/** @module The delivery memo (worker/delivery/memo.ts) with one lane per simulated isolate (lanes.mts). */
import * as real from "../../../worker/delivery/memo";
import { perLane } from "./lanes.mjs";

export * from "../../../worker/delivery/memo";

export const IsolateMemo = perLane(real.IsolateMemo);
