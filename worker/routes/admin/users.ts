/** @module `/api/admin/users`: the admin's view and control of every account. */
import { Hono, type Context } from "hono";
import { z } from "zod";
import type {
  AdminUser,
  AdminUserDetail,
  ApiKeyResponse,
  ImpersonationResponse,
  MessageResponse,
} from "#contract/responses";
import { tooLong, URL_MAX_LENGTH } from "#contract/input-caps";
import { timeseriesQuery, type TimeseriesPoint } from "#contract/timeseries";
import {
  adminMappingFilters,
  adminUsersQuery,
  paged,
  assignProductVersionBody,
  plainListQuery,
  userEmailBody,
  userEmailsQuery,
  userLimitBody,
  userLimitsBody,
  userStatusBody,
  websiteParam,
} from "#contract/schemas";
import { throttle } from "../../auth/throttle";
import type { Db } from "../../db/client";
import type { User } from "../../db/schema";
import { forgetCustomer } from "../../delivery/repairs";
import { syncCustomerState, syncEdgeHost } from "../../delivery/sync";
import { sendApiKeyMail, sendVerificationMail } from "../../email/account-mails";
import { settleIfDue } from "../../billing/periods";
import type { AppEnv } from "../../env";
import { reportDelivery } from "../../delivery/delivery-status";
import { badRequest, conflict, forbidden, notFound } from "../../http/errors";
import { publicOrigin } from "../../http/origin";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import { secretKeys } from "../../lib/crypto";
import { getAdminUser, listAdminUsers, listUserEmails } from "../../models/admin-users";
import { ensureCustomerKey, getCustomerKey, issueImpersonationKey, revokeCustomerKeys } from "../../models/api-keys";
import { recordAuditEvent } from "../../models/audit-events";
import { listAdminMappings, listMappingGroups } from "../../models/admin-mappings";
import { getProductVersion } from "../../models/product-versions";
import { userTransactions } from "../../models/transactions";
import { customerSeries } from "../../models/timeseries";
import { deleteUser, findUserByEmail, getUser, updateUser } from "../../models/users";
import { listWebsites, releaseWebsite } from "../../models/websites";
import { pathCustomerCountsSettled, seriesHeld, settleShown } from "../../analytics/settled-counts";

const userParam = z.object({ userId: z.string().min(1) });
/** How many of a user's mappings the detail answer carries; the rest page through `/:userId/mappings`. */
const DETAIL_MAPPINGS = 50;
/** One user's mappings: searched, or those of one group of the Websites & Events tab (`url`). */
const userMappingsQuery = paged(
  adminMappingFilters.extend({ url: z.string().max(URL_MAX_LENGTH, tooLong("URL", URL_MAX_LENGTH)).optional() }),
  { defaultLimit: 100, maxLimit: 1_000 },
);
const USER_NOT_FOUND = "User not found";

async function userOr404(db: Db, userId: string): Promise<User> {
  const user = await getUser(db, userId);
  if (!user) throw notFound(USER_NOT_FOUND);
  return user;
}

/** Refuses (403) what an admin may do to customers only: admins sign in by password and act only as themselves. */
function assertCustomer(target: User, refusal: string): void {
  if (target.role !== "user") throw forbidden(refusal);
}

/**
 * The key an admin may see for `target`: a customer's (SPEC.md §7's General tab shows it), or the asking admin's own
 * key of this sign-in; never another admin's (null).
 */
async function visibleKey(c: Context<AppEnv>, db: Db, target: User): Promise<string | null> {
  if (target.role === "admin") return target.id === c.var.user.id ? c.var.session.apiKey : null;
  return getCustomerKey(db, secretKeys(c.env), target.id);
}

/** Applies a change that affects delivery, writes the user's delivery state, and answers the updated user. */
async function changeUser(c: Context<AppEnv>, userId: string, change: Parameters<typeof updateUser>[2]) {
  const db = c.var.db;
  if (!(await updateUser(db, userId, change))) throw notFound(USER_NOT_FOUND);
  await syncCustomerState(c.env, userId);
  return c.json<AdminUser>((await getAdminUser(db, userId))!);
}

export const adminUserRoutes = new Hono<AppEnv>()
  .get("/", validate("query", adminUsersQuery), async (c) => {
    const query = c.req.valid("query");
    // Sorted by their counters, the order needs every customer's; otherwise only the page's are shown.
    const byCounts = query.sortBy === "totalRequests";
    if (byCounts) await settleShown(c, "all");
    const beforeCounts = byCounts ? undefined : (userIds: string[]) => settleShown(c, userIds);
    return pageResponse(c, await listAdminUsers(c.var.db, query, { beforeCounts }), query);
  })
  .get("/emails", validate("query", userEmailsQuery), async (c) =>
    pageResponse(c, await listUserEmails(c.var.db, c.req.valid("query")), c.req.valid("query")),
  )
  .get("/:userId", validate("param", userParam), pathCustomerCountsSettled, async (c) => {
    const db = c.var.db;
    const { userId } = c.req.valid("param");
    const stored = await getUser(db, userId);
    if (!stored) throw notFound(USER_NOT_FOUND);
    const target = await settleIfDue(c.env, stored, new Date());
    const user = await getAdminUser(db, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    const [apiKey, mappings] = await Promise.all([
      visibleKey(c, db, target),
      listAdminMappings(db, { userId, limit: DETAIL_MAPPINGS, offset: 0 }),
    ]);
    return c.json<AdminUserDetail>({ ...user, apiKey, mappings: mappings.rows });
  })
  .get(
    "/:userId/mappings",
    validate("param", userParam),
    validate("query", userMappingsQuery),
    pathCustomerCountsSettled,
    async (c) => {
      const db = c.var.db;
      const user = await userOr404(db, c.req.valid("param").userId);
      return pageResponse(
        c,
        await listAdminMappings(db, { ...c.req.valid("query"), userId: user.id }),
        c.req.valid("query"),
      );
    },
  )
  .get(
    "/:userId/mapping-groups",
    validate("param", userParam),
    validate("query", plainListQuery),
    pathCustomerCountsSettled,
    async (c) => {
      const db = c.var.db;
      const user = await userOr404(db, c.req.valid("param").userId);
      return pageResponse(c, await listMappingGroups(db, user.id, c.req.valid("query")), c.req.valid("query"));
    },
  )
  .get("/:userId/timeseries", validate("param", userParam), validate("query", timeseriesQuery), async (c) => {
    const db = c.var.db;
    const user = await getUser(db, c.req.valid("param").userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    const query = c.req.valid("query");
    return c.json<TimeseriesPoint[]>(await customerSeries(db, user, query, await seriesHeld(c, user.id, query)));
  })
  .get("/:userId/transactions", validate("param", userParam), validate("query", plainListQuery), async (c) => {
    const db = c.var.db;
    const user = await userOr404(db, c.req.valid("param").userId);
    return pageResponse(c, await userTransactions(db, user.id, user.email, c.req.valid("query")), c.req.valid("query"));
  })
  // A customer's website claims (docs/edge-delivery.md), pending and proven, and their release by an admin.
  .get("/:userId/websites", validate("param", userParam), validate("query", plainListQuery), async (c) => {
    const db = c.var.db;
    const user = await userOr404(db, c.req.valid("param").userId);
    return pageResponse(c, await listWebsites(db, user.id, c.req.valid("query")), c.req.valid("query"));
  })
  .delete("/:userId/websites/:hostname", validate("param", userParam.extend(websiteParam.shape)), async (c) => {
    const { userId, hostname } = c.req.valid("param");
    const db = c.var.db;
    const target = await userOr404(db, userId);
    const released = await releaseWebsite(db, target.id, hostname);
    if (!released) throw notFound(`${hostname} is not one of this user's websites`);
    if (released.status === "active") reportDelivery(c, await syncEdgeHost(c.env, target.id, hostname));
    await recordAuditEvent(db, "release-website", c.var.user, target);
    return c.json<MessageResponse>({ message: `${hostname} was released` });
  })
  // The console's "Login" (impersonation, SPEC.md §7): for a customer, a key that acts as them for an hour,
  // recorded with who asked; an admin gets only their own key, never another admin's.
  .get("/:userIdOrEmail/api-key", async (c) => {
    const db = c.var.db;
    const ref = c.req.param("userIdOrEmail");
    const target = ref.includes("@") ? await findUserByEmail(db, ref) : await getUser(db, ref);
    if (!target) throw notFound(USER_NOT_FOUND);
    if (target.role === "admin") {
      if (target.id !== c.var.user.id) throw forbidden("Admins cannot read another admin's API key");
      return c.json<ApiKeyResponse>({ apiKey: c.var.session.apiKey });
    }
    if (!target.isActive) throw conflict("This account is inactive: activate it first");
    const { apiKey, expiresAt } = await issueImpersonationKey(db, secretKeys(c.env), c.var.user.id, target.id);
    await recordAuditEvent(db, "impersonate", c.var.user, target);
    return c.json<ImpersonationResponse>({ apiKey, expiresAt: expiresAt.toISOString() });
  })
  .post("/:userId/revoke-api-key", validate("param", userParam), async (c) => {
    const db = c.var.db;
    const target = await userOr404(db, c.req.valid("param").userId);
    assertCustomer(target, "An admin's key cannot be revoked by another admin: they rotate it themselves");
    await revokeCustomerKeys(db, target.id);
    await recordAuditEvent(db, "revoke-api-key", c.var.user, target);
    return c.json<MessageResponse>({ message: "API key revoked" });
  })
  .patch("/:userId/status", validate("param", userParam), validate("json", userStatusBody), async (c) => {
    const { userId } = c.req.valid("param");
    const { isActive } = c.req.valid("json");
    if (userId === c.var.user.id && !isActive) throw badRequest("You cannot deactivate yourself");
    return changeUser(c, userId, { isActive });
  })
  .patch("/:userId/limits", validate("param", userParam), validate("json", userLimitsBody), async (c) => {
    const { requestLimit, uniqueUrlLimit, dynamicContentLimit } = c.req.valid("json");
    return changeUser(c, c.req.valid("param").userId, {
      requestLimit,
      websitesLimit: uniqueUrlLimit,
      dynamicContentLimit,
    });
  })
  .patch("/:userId/limit", validate("param", userParam), validate("json", userLimitBody), async (c) =>
    changeUser(c, c.req.valid("param").userId, { requestLimit: c.req.valid("json").limit }),
  )
  .patch("/:userId/email", validate("param", userParam), validate("json", userEmailBody), async (c) => {
    const db = c.var.db;
    const { userId } = c.req.valid("param");
    const email = c.req.valid("json").email.toLowerCase();
    const owner = await findUserByEmail(db, email);
    if (owner && owner.id !== userId) throw conflict("This email address is already in use");
    if (!(await updateUser(db, userId, { email }))) throw notFound(USER_NOT_FOUND);
    return c.json<AdminUser>((await getAdminUser(db, userId))!);
  })
  .post(
    "/:userId/product-version",
    validate("param", userParam),
    validate("json", assignProductVersionBody),
    async (c) => {
      const version = await getProductVersion(c.var.db, c.req.valid("json").versionId);
      if (!version) throw notFound("Product version not found");
      // A plan given by hand is not paid: billing never takes it away (the default plan is no gift).
      return changeUser(c, c.req.valid("param").userId, {
        productVersionId: version.id,
        planSource: version.isDefault ? "default" : "admin",
        planPaidThrough: null,
      });
    },
  )
  .post("/:userId/resend-api-key", validate("param", userParam), async (c) => {
    const db = c.var.db;
    const user = await userOr404(db, c.req.valid("param").userId);
    assertCustomer(user, "Admins sign in with their password: their keys are never mailed");
    if (!user.emailVerified) throw conflict("The email is not verified yet: resend the verification instead");
    await throttle(c, "resend", user.email);
    const apiKey = await ensureCustomerKey(db, secretKeys(c.env), user.id);
    await sendApiKeyMail(c.env, db, publicOrigin(c), user, apiKey);
    return c.json<MessageResponse>({ message: "API key sent" });
  })
  .post("/:userId/resend-verification", validate("param", userParam), async (c) => {
    const db = c.var.db;
    const user = await userOr404(db, c.req.valid("param").userId);
    assertCustomer(user, "Admins sign in with their password: they have no verification link");
    await throttle(c, "resend", user.email);
    await sendVerificationMail(c.env, db, publicOrigin(c), user);
    return c.json<MessageResponse>({ message: "Verification email sent successfully" });
  })
  .delete("/:userId", validate("param", userParam), async (c) => {
    const { userId } = c.req.valid("param");
    if (userId === c.var.user.id) throw badRequest("You cannot delete yourself");
    if (!(await deleteUser(c.var.db, userId))) throw notFound(USER_NOT_FOUND);
    await forgetCustomer(c.env, userId);
    return c.json<MessageResponse>({ message: "User deleted successfully" });
  });
