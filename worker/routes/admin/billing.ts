/** @module `/api/admin/billing`: PayPal transactions, filtered in SQL; one transaction's detail; its payer email. */
import { Hono } from "hono";
import { z } from "zod";
import type { TransactionDetail, UpdateTransactionEmailResponse } from "#contract/responses";
import { transactionEmailBody, transactionFilters } from "#contract/schemas";
import type { AppEnv } from "../../env";
import { notFound } from "../../http/errors";
import { pageResponse } from "../../http/paging";
import { validate } from "../../http/validate";
import { getTransactionDetail, listTransactions, updatePayerEmail } from "../../models/transactions";

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
  );
