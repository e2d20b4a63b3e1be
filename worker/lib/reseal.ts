/**
 * @module After a rotation of APP_SECRET: every value of a sealed column that is still under the previous secret is
 * sealed again under the current one, a page of rows at a time (ids ascending), so it ends whatever the number of
 * rows. A value that opens under neither secret is counted, not changed: it was sealed under an older secret still.
 */
import { openSecret, type SecretKeys } from "./crypto";

export interface ResealResult {
  checked: number;
  resealed: number;
  unreadable: number;
}

export async function resealColumn<Id extends string | number>(
  keys: SecretKeys,
  /** The next `limit` rows after the id `after` (the first ones for undefined), ids ascending. */
  readPage: (after: Id | undefined, limit: number) => Promise<{ id: Id; sealed: string }[]>,
  /** Stores `plaintext` sealed under the current secret for the row `id`. */
  reseal: (id: Id, plaintext: string) => Promise<void>,
  pageSize = 200,
): Promise<ResealResult> {
  const result = { checked: 0, resealed: 0, unreadable: 0 };
  for (let after: Id | undefined; ;) {
    const rows = await readPage(after, pageSize);
    if (rows.length === 0) return result;
    for (const row of rows) {
      result.checked++;
      try {
        const { plaintext, stale } = await openSecret(keys, row.sealed);
        if (stale) {
          await reseal(row.id, plaintext);
          result.resealed++;
        }
      } catch {
        result.unreadable++;
      }
    }
    after = rows[rows.length - 1]!.id;
  }
}
