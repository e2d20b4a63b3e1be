/**
 * @module Getting started (docs/getting-started.md): `GET /api/onboarding` answers the customer's steps, each done
 * or not. The dashboard's checklist asks every few seconds while it waits for the first page view.
 */
import { Hono } from "hono";
import type { Onboarding } from "#contract/responses";
import { heldFor } from "../analytics/settled-counts";
import { requireUser } from "../auth/middleware";
import type { AppEnv } from "../env";
import { onboardingSteps } from "../models/onboarding";

export const onboardingRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) =>
    c.json<Onboarding>({ steps: await onboardingSteps(c.var.db, c.var.user, await heldFor(c, c.var.user.id)) }),
  );
