/**
 * @module Work that must not shape the answer: it runs after the response (`waitUntil`), so that the answer and
 * its timing are the same whatever the work finds (e.g. whether an address has an account). A failure is logged
 * with its label, never thrown at the caller.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";

export function inBackground(c: Context<AppEnv>, label: string, work: () => Promise<unknown>): void {
  c.executionCtx.waitUntil(
    work().catch((err: unknown) => console.error(`${label} failed:`, err instanceof Error ? err.message : err)),
  );
}
