/**
 * @module The bench Worker's virtual clock: `Date.now()` in the isolate is the real time unless a piece of work
 * runs `at` a virtual time, so that the hot path's 5-second memo (delivery/store.ts, which reads `Date.now()`)
 * sees simulated time: views at the simulated rate for a warm isolate, or more than 5 s apart for cold ones.
 * `new Date()` is left alone; the code under test passes the time it means where it matters (the crons take `now`).
 */
const realNow = Date.now.bind(Date);
let offsetMs = 0;
Date.now = () => realNow() + offsetMs;

/** Runs `work` with `Date.now()` starting at `virtualMs` (and advancing in real time while it runs). */
export async function at<T>(virtualMs: number, work: () => Promise<T>): Promise<T> {
  offsetMs = virtualMs - realNow();
  try {
    return await work();
  } finally {
    offsetMs = 0;
  }
}
