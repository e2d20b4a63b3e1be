/**
 * @module "Check my page" (docs/getting-started.md): `POST /api/install-check {url}` fetches the customer's page and
 * answers what it found (websites/install-check.ts), throttled per account.
 */
import { Hono } from "hono";
import type { InstallCheck } from "#contract/responses";
import { installCheckBody } from "#contract/schemas";
import { requireUser } from "../auth/middleware";
import { throttle } from "../auth/throttle";
import type { AppEnv } from "../env";
import { deliveryOrigin, publicOrigin } from "../http/origin";
import { validate } from "../http/validate";
import { checkInstall } from "../websites/install-check";

export const installCheckRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/", validate("json", installCheckBody), async (c) => {
    await throttle(c, "install-check", c.var.user.id);
    const origins = { public: publicOrigin(c), delivery: deliveryOrigin(c) };
    return c.json<InstallCheck>(await checkInstall(c.env, c.var.db, c.var.user, c.req.valid("json").url, origins));
  });
