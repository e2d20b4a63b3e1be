/**
 * @module Which `url_stats` row a customer's views of a URL count on: its own row, or the day's `OTHER_PAGES` row
 * (analytics/count.ts places them when it counts; models/held-counts.ts foresees it for views not counted yet).
 */

/** New URLs without a mapping that get rows of their own per customer and day. */
export const UNMAPPED_URLS_PER_DAY = 1_000;
/**
 * The longest normalised URL without a mapping that gets rows of its own (docs/scaling.md: a URL's row with its
 * trigram index costs about 7 bytes a character); a longer one counts in `OTHER_PAGES`. Mapped URLs keep theirs.
 */
export const UNMAPPED_URL_MAX_LENGTH = 256;

/** Whether a URL is longer than `UNMAPPED_URL_MAX_LENGTH` characters (as SQLite's `length` counts them). */
export const tooLongForARow = (url: string): boolean =>
  url.length > UNMAPPED_URL_MAX_LENGTH && [...url].length > UNMAPPED_URL_MAX_LENGTH;
