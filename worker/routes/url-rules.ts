/**
 * @module The customer's URL rules (docs/url-rules.md): `GET /api/url-rules` answers the tracking parameters every
 * URL drops and the customer's own; `PUT /api/url-rules` sets their own. Their own apply to every lookup at once
 * (they travel in the customer's delivery state) and to mappings saved from then on.
 */
import { Hono } from "hono";
import { requireUser } from "../auth/middleware";
import type { UrlRules } from "#contract/responses";
import { urlRulesBody } from "#contract/schemas";
import { TRACKING_PARAMETERS } from "#contract/url-rules";
import { syncCustomerState } from "../delivery/sync";
import type { AppEnv } from "../env";
import { reportDelivery } from "../delivery/delivery-status";
import { validate } from "../http/validate";
import { updateUser } from "../models/users";

const urlRules = (ignoredParameters: string[]): UrlRules => ({
  trackingParameters: [...TRACKING_PARAMETERS],
  ignoredParameters,
});

export const urlRulesRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", (c) => c.json<UrlRules>(urlRules(c.var.user.ignoredParameters)))
  .put("/", validate("json", urlRulesBody), async (c) => {
    const { ignoredParameters } = c.req.valid("json");
    await updateUser(c.var.db, c.var.user.id, { ignoredParameters });
    reportDelivery(c, (await syncCustomerState(c.env, c.var.user.id)) !== null);
    return c.json<UrlRules>(urlRules(ignoredParameters));
  });
