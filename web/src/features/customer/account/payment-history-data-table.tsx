import { PagedRows } from "@/components/paged-rows";
import { usePage } from "@/hooks/use-page";
import { usePaymentHistory } from "@/queries/payment-history";
import { PaymentHistoryTable } from "./payment-history-table";

/** The payments a page at a time; a failure is toasted (with the server's message) and leaves a short note here. */
export function PaymentHistoryDataTable() {
  const page = usePage(null);
  const payments = usePaymentHistory(page.offset);
  if (payments.isError) {
    return <p className="py-8 text-center text-muted-foreground">The payment history could not be loaded.</p>;
  }
  return (
    <PagedRows query={payments} page={page}>
      {(rows) => <PaymentHistoryTable payments={rows} />}
    </PagedRows>
  );
}
