import type { MouseEvent } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { Transaction } from "#contract/responses";
import { WarningMark } from "@/components/warning-mark";
import { PaymentStatusBadge } from "@/components/payment-status-badge";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDayTime } from "@/lib/format-date";
import { cn } from "@/lib/utils";
import { formatMoney } from "@/lib/format-money";

export const NO_MATCHING_USER_TEXT = "No matching user account found";
export const NO_TRANSACTIONS_TEXT = "No transactions found";

export const transactionDetailPath = (transactionId: string) =>
  `/admin/billing/transaction/${encodeURIComponent(transactionId)}`;

// The ID is also a link (for the keyboard); its own navigation is enough.
const stopRowClick = (event: MouseEvent) => event.stopPropagation();

const COLUMN_COUNT = 6;

/** The transaction history; a row opens its detail, a payer without an account tints it red. */
export function BillingTransactionsTable({ transactions }: { transactions: Transaction[] }) {
  const navigate = useNavigate();

  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead>Transaction ID</TableHead>
          <TableHead>Payer</TableHead>
          <TableHead>Product</TableHead>
          <TableHead>Amount</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {transactions.length === 0 ? (
          <TableEmptyRow colSpan={COLUMN_COUNT}>{NO_TRANSACTIONS_TEXT}</TableEmptyRow>
        ) : (
          transactions.map((transaction) => {
            const unmatched = !transaction.hasMatchingUser;
            const payerName = [transaction.payerFirstName, transaction.payerLastName].filter(Boolean).join(" ");
            const detailPath = transactionDetailPath(transaction.transactionId);
            return (
              <TableRow
                key={transaction.transactionId}
                onClick={() => navigate(detailPath)}
                className={cn("cursor-pointer", unmatched && "bg-red-50 hover:bg-red-100")}
              >
                <TableCell className="whitespace-nowrap">{formatGermanDayTime(transaction.receivedAt)}</TableCell>
                <TableCell className="font-mono text-xs break-all">
                  <Link to={detailPath} onClick={stopRowClick} className="hover:underline">
                    {transaction.transactionId}
                  </Link>
                </TableCell>
                <TableCell>
                  <div className="flex items-center gap-2">
                    <span>{transaction.payerEmail ?? "-"}</span>
                    {unmatched && <WarningMark text={NO_MATCHING_USER_TEXT} className="text-red-600" />}
                  </div>
                  {payerName && <div className="text-xs text-muted-foreground">{payerName}</div>}
                </TableCell>
                <TableCell>
                  <div>{transaction.productName ?? "-"}</div>
                  {transaction.subscriptionType && (
                    <div className="text-xs text-muted-foreground">{transaction.subscriptionType}</div>
                  )}
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatMoney(transaction.amount, transaction.currency, { locale: "en-US", nonNumeric: "as-sent" })}
                </TableCell>
                <TableCell>
                  <PaymentStatusBadge status={transaction.paymentStatus} />
                </TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}
