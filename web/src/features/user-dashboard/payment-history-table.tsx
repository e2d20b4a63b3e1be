import type { PaymentHistoryItem } from "../../../../worker/contract/responses";
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatGermanDay, formatGermanPeriod } from "@/lib/format-date";
import { formatPaymentAmount } from "./format-money";

export function PaymentHistoryTable({ payments }: { payments: PaymentHistoryItem[] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Date of Payment</TableHead>
          <TableHead>Product</TableHead>
          <TableHead>Amount</TableHead>
          <TableHead>Billing Period</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {payments.length === 0 ? (
          <TableEmptyRow colSpan={4}>No payment history available</TableEmptyRow>
        ) : (
          payments.map((payment, index) => (
            // Items carry no id; the list is replaced as a whole, so the position is a stable key.
            <TableRow key={index}>
              <TableCell>{formatGermanDay(payment.date)}</TableCell>
              <TableCell>{payment.product}</TableCell>
              <TableCell>{formatPaymentAmount(payment.amount, payment.currency)}</TableCell>
              <TableCell>{formatGermanPeriod(payment.billingPeriod.start, payment.billingPeriod.end)}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  );
}
