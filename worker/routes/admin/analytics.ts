/**
 * @module `POST /api/admin/analytics/quarantine/{userId}/release`: the customer's analytics events the fold set
 * aside (analytics/quarantine.ts) go back into the fold, counted at the next minute (or set aside again, if their
 * fold still fails). The overview (`GET /api/admin/overview`, `analytics`) shows whose and why.
 */
import { Hono } from "hono";
import { z } from "zod";
import { IDENTIFIER_MAX_LENGTH, tooLong } from "#contract/input-caps";
import type { MessageResponse } from "#contract/responses";
import { releaseCustomer } from "../../analytics/quarantine";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { validate } from "../../http/validate";

const userParam = z.object({
  userId: z.string().min(1).max(IDENTIFIER_MAX_LENGTH, tooLong("User id", IDENTIFIER_MAX_LENGTH)),
});

export const adminAnalyticsRoutes = new Hono<AppEnv>().post(
  "/quarantine/:userId/release",
  validate("param", userParam),
  async (c) => {
    const views = await releaseCustomer(c.env.DB, c.req.valid("param").userId);
    if (views === 0) throw notFound("This customer has no events set aside");
    return c.json<MessageResponse>({
      message: `${views.toLocaleString("en-US")} views released: they are counted at the next minute's fold`,
    });
  },
);
