import { isUnlimited } from "@/lib/limits";

export const UNLIMITED_SIGN = "∞";

export interface UsageMeter {
  /** Share of the limit used, rounded, capped at 100; 0 when unlimited. */
  percent: number;
  /** The limit as shown: the number, or ∞ for no limit (null or 0). */
  limitLabel: string;
}

export function usageMeter(used: number, limit: number | null | undefined): UsageMeter {
  if (isUnlimited(limit)) return { percent: 0, limitLabel: UNLIMITED_SIGN };
  const percent = Math.round((Math.max(0, used) / limit) * 100);
  return { percent: Math.min(100, percent), limitLabel: String(limit) };
}
