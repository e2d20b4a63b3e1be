/**
 * @module The D1 schema: every table of SPEC.md §3, plus the columns and tables the design adds
 * (admin password hashes, encrypted API keys, stored SMTP configuration, analytics counters), one file per
 * aggregate. Timestamps are integer milliseconds since the epoch. Deleting a user cascades to every row of theirs.
 * What drizzle cannot say (triggers, FTS5, WITHOUT ROWID) is in ../raw.ts.
 */
export * from "./accounts";
export * from "./mail";
export * from "./billing";
export * from "./mappings";
export * from "./webhooks";
export * from "./websites";
export * from "./analytics";
export * from "./experiments";
