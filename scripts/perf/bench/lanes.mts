/**
 * @module What a production isolate keeps in memory, with one lane per simulated isolate: the bench bundles the
 * modules below in place of the product's (harness.ts), so that views of different locations and isolates, which the
 * one local isolate serves in turn, do not share what only one production isolate would hold. Each lane is an
 * instance of the real class, so its own rules hold in every lane; the lane is the current request's (locations.mts).
 */
import { laneKey } from "./locations.mjs";

/** `Class`, each of whose instances is one instance per lane, made when the lane first uses it. */
export function perLane<C extends new (...args: never[]) => object>(Class: C): C {
  return new Proxy(Class, {
    construct(Real, args: ConstructorParameters<C>) {
      const lanes = new Map<string, object>();
      const lane = () => {
        const key = laneKey();
        let instance = lanes.get(key);
        if (!instance) lanes.set(key, (instance = new Real(...args)));
        return instance;
      };
      return new Proxy(Object.create(Real.prototype) as object, {
        get(_, key) {
          const instance = lane();
          const value = Reflect.get(instance, key, instance) as unknown;
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(instance) : value;
        },
      });
    },
  });
}
