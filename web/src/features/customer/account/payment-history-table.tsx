import type { PaymentHistoryItem } from "#contract/responses";
import { PaymentStatusBadge } from "@/components/payment-status-badge";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDay, formatGermanPeriod } from "@/lib/format-date";
import { formatMoney } from "@/lib/format-money";

/** The period a payment paid for; '-' for one that paid for none (pending, refunded, not the plan's price). */
const paidPeriod = ({ start, end }: PaymentHistoryItem["billingPeriod"]) =>
  start || end ? formatGermanPeriod(start, end) : "-";

export function PaymentHistoryTable({ payments }: { payments: PaymentHistoryItem[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date of Payment</TableHead>
          <TableHead>Product</TableHead>
          <TableHead>Amount</TableHead>
          <TableHead>Billing Period</TableHead>
          <TableHead>Status</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {payments.length === 0 ? (
          <TableEmptyRow colSpan={5}>No payment history available</TableEmptyRow>
        ) : (
          payments.map((payment, index) => (
            <TableRow key={payment.transactionId ?? index}>
              <TableCell>{formatGermanDay(payment.date)}</TableCell>
              <TableCell>{payment.product}</TableCell>
              <TableCell>{formatMoney(payment.amount, payment.currency)}</TableCell>
              <TableCell>{paidPeriod(payment.billingPeriod)}</TableCell>
              <TableCell>
                <PaymentStatusBadge status={payment.status} />
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
