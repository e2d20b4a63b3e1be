/** @module UTC days as the analytics keep them: `YYYY-MM-DD`. */
export function utcDay(timestamp: number): string {
  return new Date(timestamp).toISOString().slice(0, 10);
}
