/**
 * What the usage screens say of their freshness: page views are counted by the minute cron's fold
 * (worker/analytics/fold.ts), so counts, charts and limits trail a view by about a minute (docs/analytics.md).
 */
export const COUNTS_LAG_NOTE = "Page views are counted within about a minute.";

/** The same, on the admin's German screens. */
export const COUNTS_LAG_NOTE_DE = "Seitenaufrufe werden innerhalb etwa einer Minute gezählt.";
