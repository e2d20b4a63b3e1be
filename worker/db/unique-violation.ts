/** @module Telling a write a unique index refused (D1 wraps SQLite's error in causes) from any other failure. */

/** Whether `err` is SQLite's "UNIQUE constraint failed", on `column` (`table.column`) when one is named. */
export function isUniqueViolation(err: unknown, column?: string): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    if (e.message.includes("UNIQUE constraint failed") && (!column || e.message.includes(column))) return true;
  }
  return false;
}
