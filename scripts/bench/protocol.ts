/** @module What the bench (Node) and its Worker entry (workerd) agree on: the bench-only paths and the seed call. */
export const ROUTES = {
  /** (a) a constant 1 KB answer. */
  constant: "/__bench/constant",
  /** (b) the content lookup alone: `?u=<user id>&url=<page URL>`. */
  lookup: "/__bench/lookup",
  /** (c) the constant answer plus one analytics message: `?u=<user id>&url=<page URL>&m=<mapping id>`. */
  enqueue: "/__bench/enqueue",
  /** POST a SeedRequest, answers a SeedResponse. */
  seed: "/__bench/seed",
  /** (d) the real content endpoint of the Hono app. */
  content: "/api/content",
} as const;

export interface SeedRequest {
  email: string;
  mappings: number;
  htmlBytes: number;
}

export interface SeedResponse {
  userId: string;
  mappings: { id: number; url: string; html: string }[];
}
