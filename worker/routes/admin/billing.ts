/**
 * @module `/api/admin/billing`: PayPal transactions, filtered in SQL; one transaction's detail; its payer email; the
 * subscriptions that pay us but that no account stores, and the admin's link or cancel of one.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { MessageResponse, TransactionDetail, UpdateTransactionEmailResponse } from "#contract/responses";
import {
  subscriptionIdParam,
  transactionEmailBody,
  transactionFilters,
  unclaimedSubscriptionsQuery,
} from "#contract/schemas";
import { cancelUnclaimedSubscription, linkUnclaimedSubscription } from "../../billing/unclaimed-subscriptions";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import { getTransactionDetail, listTransactions, updatePayerEmail } from "../../models/transactions";
import { unclaimedSubscriptionsPage } from "../../models/unclaimed-subscriptions";

const idParam = z.object({ id: z.string().min(1) });
const NOT_FOUND = "Transaction not found";

export const adminBillingRoutes = new Hono<AppEnv>()
  .get("/transactions", validate("query", transactionFilters), async (c) =>
    pageResponse(c, await listTransactions(c.var.db, c.req.valid("query")), c.req.valid("query")),
  )
  .get("/transaction/:id", validate("param", idParam), async (c) => {
    const detail = await getTransactionDetail(c.var.db, c.req.valid("param").id);
    if (!detail) throw notFound(NOT_FOUND);
    return c.json<TransactionDetail>(detail);
  })
  .patch(
    "/transaction/:id/update-email",
    validate("param", idParam),
    validate("json", transactionEmailBody),
    async (c) => {
      const updated = await updatePayerEmail(c.var.db, c.req.valid("param").id, c.req.valid("json").email);
      if (!updated) throw notFound(NOT_FOUND);
      return c.json<UpdateTransactionEmailResponse>({
        message: "Email updated successfully",
        transaction: updated.detail,
        linked: updated.linked,
      });
    },
  )
  .get("/unclaimed-subscriptions", validate("query", unclaimedSubscriptionsQuery), async (c) =>
    pageResponse(c, await unclaimedSubscriptionsPage(c.var.db, c.req.valid("query")), c.req.valid("query")),
  )
  .post("/unclaimed-subscriptions/:id/link", validate("param", subscriptionIdParam), async (c) =>
    c.json<MessageResponse>(await linkUnclaimedSubscription(c.env, c.var.db, c.req.valid("param").id, new Date())),
  )
  .post("/unclaimed-subscriptions/:id/cancel", validate("param", subscriptionIdParam), async (c) =>
    c.json<MessageResponse>(await cancelUnclaimedSubscription(c.env, c.var.db, c.req.valid("param").id, new Date())),
  );
