/**
 * @module "Pick on page" (docs/placement.md): `POST /api/pick-on-page {url}` answers a signed frame link for the
 * customer's page; `GET /pick-frame?t=` serves that page with the picker on the frame's own origin
 * (websites/pick-frame.ts); `POST /api/pick-on-page/check {url, selector}` looks for a picked selector on other pages
 * of a prefix rule (websites/pick-check.ts). All are throttled alike: per account, and the frame per address.
 */
import { Hono, type Context } from "hono";
import type { PickCheck, PickFrame } from "#contract/responses";
import { pickCheckBody, pickOnPageBody } from "#contract/schemas";
import { requireUser } from "../auth/middleware";
import { throttle } from "../auth/throttle";
import { pickFrame, pickFrameLink, pickFramePage, PICK_FRAME_INVALID } from "../websites/pick-frame";
import type { AppEnv } from "../env";
import { withDatabase } from "../http/database";
import { ApiError, forbidden } from "../http/errors";
import { pickFrameOrigin, publicOrigin } from "../http/origin";
import { resolvedTargetProblem, targetRefusal } from "../http/outbound-target";
import { validate } from "../http/validate";
import { INSTALL_CHECK_TARGET_PROBLEMS } from "../websites/install-check";
import { checkSelectorElsewhere } from "../websites/pick-check";

export const PICK_NO_ORIGIN =
  "Pick on page needs a delivery origin of its own (DELIVERY_ORIGIN), so that the page never runs on the dashboard's.";

/** Counts the request against the account's pick-on-page throttle, and refuses a URL the outbound rule refuses. */
async function admitPage(c: Context<AppEnv>, url: string) {
  await throttle(c, "pick-on-page", c.var.user.id);
  const refused = await resolvedTargetProblem(c.env, new URL(url));
  if (refused) throw targetRefusal(refused, INSTALL_CHECK_TARGET_PROBLEMS);
}

export const pickOnPageRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/", validate("json", pickOnPageBody), async (c) => {
    const { url } = c.req.valid("json");
    await admitPage(c, url);
    const link = await pickFrameLink(c.env, c.var.user.id, url);
    if (!link) throw new ApiError(503, PICK_NO_ORIGIN);
    return c.json<PickFrame>(link);
  })
  .post("/check", validate("json", pickCheckBody), async (c) => {
    const { url, selector } = c.req.valid("json");
    await admitPage(c, url);
    return c.json<PickCheck>(await checkSelectorElsewhere(c.env, c.var.db, c.var.user, url, selector));
  });

export const pickFrameRoute = new Hono<AppEnv>().use(withDatabase).get("/", async (c) => {
  // Never on the dashboard's origin: the page would run beside its cookies.
  if (new URL(c.req.url).origin !== pickFrameOrigin(c.env)) return c.text("Not found", 404);
  await throttle(c, "pick-on-page");
  const page = await pickFramePage(c.env, c.req.query("t") ?? "");
  if (!page) throw forbidden(PICK_FRAME_INVALID);
  return pickFrame(c.env, page, publicOrigin(c));
});
