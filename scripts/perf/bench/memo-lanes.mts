/**
 * @module The delivery memo (worker/delivery/memo.ts) with one lane per simulated isolate: the bench bundles this in
 * its place (harness.ts), so that views of different locations and isolates, which the one local isolate serves in
 * turn, do not share what only one production isolate would remember. Each lane is the real class, so the memo's
 * own rules (time to live, byte budget) hold in every lane; the lane is the current request's (locations.mts).
 */
import * as real from "../../../worker/delivery/memo";
import { laneKey } from "./locations.mjs";

export * from "../../../worker/delivery/memo";

export const IsolateMemo = new Proxy(real.IsolateMemo, {
  construct(Memo, args: ConstructorParameters<typeof real.IsolateMemo>) {
    const lanes = new Map<string, real.IsolateMemo<unknown>>();
    const lane = () => {
      const key = laneKey();
      let memo = lanes.get(key);
      if (!memo) lanes.set(key, (memo = new Memo(...args)));
      return memo;
    };
    return new Proxy(Object.create(Memo.prototype) as object, {
      get(_, key) {
        const memo = lane();
        const value = Reflect.get(memo, key, memo) as unknown;
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(memo) : value;
      },
    });
  },
});
