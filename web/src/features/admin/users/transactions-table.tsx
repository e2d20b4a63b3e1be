import type { Transaction } from "#contract/responses";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDayTime } from "@/lib/format-date";
import { cn } from "@/lib/utils";
import { formatMoney } from "@/lib/format-money";
import { isCancelled } from "./users-view";

export const NO_TRANSACTIONS_TEXT = "No transactions found for this user";

/** One user's transactions; those of a cancelled subscription are red. */
export function TransactionsTable({ transactions }: { transactions: Transaction[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead>Product</TableHead>
          <TableHead>Amount</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Transaction ID</TableHead>
          <TableHead>Next Payment</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {transactions.length === 0 ? (
          <TableEmptyRow colSpan={6}>{NO_TRANSACTIONS_TEXT}</TableEmptyRow>
        ) : (
          transactions.map((transaction) => {
            const cancelled = isCancelled(transaction.profileStatus);
            return (
              <TableRow
                key={transaction.transactionId}
                data-cancelled={cancelled || undefined}
                className={cn(cancelled && "bg-red-50 text-red-700 hover:bg-red-100")}
              >
                <TableCell className="whitespace-nowrap">{formatGermanDayTime(transaction.receivedAt)}</TableCell>
                <TableCell>{transaction.productName ?? "-"}</TableCell>
                <TableCell className="whitespace-nowrap">
                  {formatMoney(transaction.amount, transaction.currency, { locale: "en-US" })}
                </TableCell>
                <TableCell>
                  <span className="inline-flex flex-wrap items-center gap-2">
                    {transaction.paymentStatus ?? "-"}
                    {cancelled && <Badge variant="destructive">Cancelled</Badge>}
                  </span>
                </TableCell>
                <TableCell className="font-mono text-xs break-all">{transaction.transactionId}</TableCell>
                <TableCell className="whitespace-nowrap">{formatGermanDayTime(transaction.nextPaymentDate)}</TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}
