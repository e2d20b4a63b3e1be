/**
 * @module The bench Worker's virtual clock: `Date.now()` in the isolate is the real time unless a piece of work
 * runs `at` a virtual time, so that the hot path's 5-second memo (delivery/store.ts, which reads `Date.now()`)
 * sees simulated time: views at the simulated rate for a warm isolate, or more than 5 s apart for cold ones.
 * The offset follows the work into what it leaves to `waitUntil` (an AsyncLocalStorage), so that what a request
 * caches after its answer is stamped with its own virtual time. `new Date()` is left alone; the code under test
 * passes the time it means where it matters (the crons take `now`).
 */
import { AsyncLocalStorage } from "node:async_hooks";

const realNow = Date.now.bind(Date);
const offset = new AsyncLocalStorage<number>();
Date.now = () => realNow() + (offset.getStore() ?? 0);

/** Runs `work` with `Date.now()` starting at `virtualMs` (and advancing in real time while it runs). */
export function at<T>(virtualMs: number, work: () => Promise<T>): Promise<T> {
  return offset.run(virtualMs - realNow(), work);
}
